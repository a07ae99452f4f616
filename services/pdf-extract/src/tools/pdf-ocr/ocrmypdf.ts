import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec, parallelism, timeLeft, ToolError, type Job } from '@quire/base';
import type { OcrLanguage } from '@quire/catalog';

export interface OcrChoices {
  language: OcrLanguage[];
  deskew: boolean;
  rotate: boolean;
  existingText: 'skip' | 'redo';
  pdfa: boolean;
}

/** Seconds Tesseract may spend on one page; past that OCRmyPDF leaves the page without text. */
const tesseractTimeoutSeconds = 60;

/**
 * How the run ended: `done`; `had-text` (exit 6: every page already has text, nothing written);
 * `not-pdfa` (exit 10: a good PDF was written but it is not PDF/A).
 */
export type OcrOutcome = 'done' | 'had-text' | 'not-pdfa';

/** Tesseract's engine with the words of a skewed scan laid level, so that readers take them whole. */
const levelWords = fileURLToPath(new URL('./level-words.py', import.meta.url));

/** OCRmyPDF's arguments for these choices; the same ones the benchmark's bare run leaves out. */
export function ocrArgs(choices: OcrChoices): string[] {
  return [
    ...['--jobs', String(parallelism()), '--language', choices.language.join('+')],
    choices.existingText === 'redo' ? '--redo-ocr' : '--skip-text',
    ...['--output-type', choices.pdfa ? 'pdfa' : 'pdf'],
    ...['--tesseract-timeout', String(tesseractTimeoutSeconds)],
    // The pages stay as they came: their images are neither re-encoded nor "optimized".
    ...['--optimize', '0'],
    ...(choices.deskew ? ['--deskew'] : []),
    ...(choices.rotate ? ['--rotate-pages'] : []),
    ...['--plugin', levelWords],
    '--quiet',
  ];
}

/**
 * Makes `input` searchable into `output` with Debian's OCRmyPDF and Tesseract, under the job's time
 * and signal (every process killed with its children). Its scratch files stay in the job's folder.
 * Exit codes that are the input's fault answer damaged_input, as does any failure on a damaged input;
 * the rest are ours.
 */
export async function ocrmypdf(
  input: string,
  output: string,
  choices: OcrChoices,
  job: Job & { progress?: (pagesDone: number) => void },
): Promise<OcrOutcome> {
  const scratch = join(job.workdir, 'ocr-scratch');
  await mkdir(scratch, { recursive: true });
  const progressFile = join(job.workdir, 'ocr-progress');
  // Debian's python3 runs it: a Python of the host's (pyenv, a virtualenv) must not leak its paths in.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PYTHON')));
  const watching = job.progress && watchPages(progressFile, job.progress);
  const { code, stderr } = await exec('ocrmypdf', [...ocrArgs(choices), input, output], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    // No bytecode cache written beside the plugin, in the service's own folder.
    env: {
      ...env,
      TMPDIR: scratch,
      OMP_THREAD_LIMIT: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      QUIRE_OCR_PROGRESS: progressFile,
    },
  }).finally(() => watching && clearInterval(watching));
  const cause = new Error(`ocrmypdf exit ${code}: ${stderr.slice(-2000)}`);
  switch (code) {
    case 0:
      return 'done';
    case 6:
      return 'had-text';
    case 10:
      return 'not-pdfa';
    case 2: // not a PDF or image it can read
    case 4: // it wrote a PDF that does not open: the input's structure did not survive
    case 7: // Ghostscript or Tesseract failed on a page
      throw new ToolError('damaged_input', undefined, { cause });
    case 8:
      throw new ToolError('password_required', undefined, { cause });
    case 3:
      throw new ToolError('not_available', undefined, { cause });
    default:
      // Any other failure on an input qpdf had to mend (a page object it could not read) is the input's.
      throw new ToolError((await sound(input, job)) ? 'internal' : 'damaged_input', undefined, { cause });
  }
}

/** Reads the pages done that the plugin writes, each second, and tells them on as they grow. */
function watchPages(file: string, tell: (pagesDone: number) => void): NodeJS.Timeout {
  let told = 0;
  return setInterval(() => {
    void readFile(file, 'ascii')
      .then((text) => {
        const done = Number(text.split(' ')[0]);
        if (Number.isSafeInteger(done) && done > told) tell((told = done));
      })
      .catch(() => undefined); // not written yet
  }, 1000);
}

/** Whether qpdf finds nothing to mend in a PDF. */
async function sound(path: string, job: Job): Promise<boolean> {
  const { code } = await exec('qpdf', ['--check', path], { timeoutMs: timeLeft(job.deadline), signal: job.signal });
  return code === 0;
}
