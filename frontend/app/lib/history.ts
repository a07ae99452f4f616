/**
 * The usage history in local browser storage: one record (email, tool, date) per successful run.
 * Anonymous visitors keep theirs here (email empty); a signed-in user's runs are kept by the gateway.
 */
export interface UsageRecord {
  email: string;
  tool: string;
  /** ISO 8601. */
  date: string;
}

const key = 'quire.history';
const kept = 50;

export function readLocalHistory(): UsageRecord[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (r): r is UsageRecord =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as UsageRecord).email === 'string' &&
        typeof (r as UsageRecord).tool === 'string' &&
        typeof (r as UsageRecord).date === 'string',
    );
  } catch {
    return [];
  }
}

/** Adds a record, newest first, keeping the last few. */
export function recordLocalUse(tool: string, email = '', date = new Date()): void {
  try {
    const records = [{ email, tool, date: date.toISOString() }, ...readLocalHistory()].slice(0, kept);
    localStorage.setItem(key, JSON.stringify(records));
  } catch {
    // storage full or disabled: the history is a convenience
  }
}

/** The records of one e-mail (the empty one: the anonymous visitor's). */
export function localHistoryOf(email: string): UsageRecord[] {
  return readLocalHistory().filter((r) => r.email === email);
}
