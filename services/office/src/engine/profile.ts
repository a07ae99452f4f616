import { createHash } from 'node:crypto';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Value = string | number | boolean;

/** One setting of LibreOffice's configuration, as written in a user profile. */
function item(path: string, name: string, value: Value): string {
  const v = String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${v}</value></prop></item>`;
}

/**
 * The settings every listener's profile starts with. Each line is a defence on its own:
 * - BlockUntrustedRefererLinks: linked images, sections and WEBSERVICE() in documents are not loaded,
 *   from the network or from local files (checked in the tests with a listener on 127.0.0.1);
 * - a dead proxy for http, https and ftp, so that anything that still tried would go nowhere;
 * - macros disabled outright, on top of NEVER_EXECUTE at load time;
 * - no lock files, autosave or recovery data, which would only leave files behind.
 */
export const profileSettings: string[] = [
  item('/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', true),
  item('/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', true),
  item('/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', 3),
  item('/org.openoffice.Office.Common/Security/Scripting', 'WarnAlienFormat', false),
  item('/org.openoffice.Inet/Settings', 'ooInetProxyType', 2),
  ...['HTTP', 'HTTPS', 'FTP'].flatMap((p) => [
    item('/org.openoffice.Inet/Settings', `ooInet${p}ProxyName`, '127.0.0.1'),
    item('/org.openoffice.Inet/Settings', `ooInet${p}ProxyPort`, 9),
  ]),
  item('/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''),
  item('/org.openoffice.Office.Common/Misc', 'UseDocumentSystemFileLocking', false),
  item('/org.openoffice.Office.Common/Misc', 'UseDocumentOOoLockFile', false),
  item('/org.openoffice.Office.Common/Misc', 'FirstRun', false),
  item('/org.openoffice.Office.Common/Misc', 'ShowTipOfTheDay', false),
  item('/org.openoffice.Office.Recovery/AutoSave', 'Enabled', false),
  item('/org.openoffice.Office.Recovery/RecoveryInfo', 'Enabled', false),
  item('/org.openoffice.Office.Common/Save/Document', 'CreateBackup', false),
];

export function registryModifications(): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    ...profileSettings,
    '</oor:items>',
    '',
  ].join('\n');
}

/**
 * A fresh user profile with our settings, replacing whatever was there: a copy of the template when
 * there is one (an initialised profile starts a listener faster than an empty one, which LibreOffice
 * fills on a first start), else an empty one. Our settings are written last either way.
 */
export async function freshProfile(dir: string, template?: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  if (template) await cp(template, dir, { recursive: true });
  await mkdir(join(dir, 'user'), { recursive: true, mode: 0o700 });
  await writeFile(join(dir, 'user', 'registrymodifications.xcu'), registryModifications(), { mode: 0o600 });
}

/**
 * A template from a profile LibreOffice has initialised: copied without its lock file, with our
 * settings written over whatever LibreOffice added, then put in place in one rename.
 */
export async function makeTemplate(profile: string, template: string): Promise<void> {
  const partial = `${template}.partial`;
  await rm(partial, { recursive: true, force: true });
  await cp(profile, partial, { recursive: true, filter: (src) => basename(src) !== '.lock' });
  await writeFile(join(partial, 'user', 'registrymodifications.xcu'), registryModifications(), { mode: 0o600 });
  await rename(partial, template);
}

export function profileUrl(dir: string): string {
  return pathToFileURL(dir).href;
}

/**
 * The socket files LibreOffice leaves in /tmp when it is killed: the `--accept` pipe and the
 * single-instance pipe, named after an MD5 of the profile URL in UTF-16, each byte in unpadded hex
 * (desktop/source/app/officeipcthread.cxx).
 */
export function pipeFiles(pipeName: string, profileDir: string): string[] {
  const uid = process.getuid?.() ?? 0;
  const digest = createHash('md5')
    .update(Buffer.from(profileUrl(profileDir), 'utf16le'))
    .digest();
  const hash = [...digest].map((b) => b.toString(16)).join('');
  return [`/tmp/OSL_PIPE_${uid}_${pipeName}`, `/tmp/OSL_PIPE_${uid}_SingleOfficeIPC_${hash}`];
}
