import { useState } from 'react';
import type { RunOutcome } from '../../lib/api.ts';

/**
 * The password field: shown once the server asked for a password (or another one), until a run succeeds;
 * from the start (`first`) for a tool whose inputs are protected as a rule.
 */
export function usePasswordPrompt(first = false) {
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(first);

  /** A new file: the password asked for the last one no longer applies. */
  function forget() {
    setAsking(first);
    setPassword('');
  }

  function follow(outcome: RunOutcome) {
    if (outcome.ok) setAsking(first);
    else if (outcome.reason === 'error' && (outcome.code === 'password_required' || outcome.code === 'wrong_password'))
      setAsking(true);
  }

  /** The page view could not open the file without a password. */
  const ask = () => setAsking(true);

  return { password, setPassword, asking, ask, forget, follow };
}
