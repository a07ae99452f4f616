"""An OCRmyPDF plugin: Tesseract's engine, with each recognised word of a slightly skewed scan set level,
and the pages read so far written where the service looks for them.

Tesseract writes a line of a skewed scan along its slanted baseline, and readers start a new word
wherever a character's baseline drifts from the word's first (poppler: by half a point), so a long
word on a page turned by a degree or two is read back cut in pieces ("Helv etica"). Here each word
starts where Tesseract put it, its letters on a level baseline from there: the invisible word keeps its
place and width and reads whole. Text turned further (a sideways heading, a page read at 90°) keeps
its angle. Loaded with `--plugin`.

Progress: as each page's OCR ends, "done total" is written to the file QUIRE_OCR_PROGRESS names."""
import math
import os
from pathlib import Path

import pikepdf
from ocrmypdf import hookimpl
from ocrmypdf.builtin_plugins.tesseract_ocr import TesseractOcrEngine

# Beyond this the text is set at an angle on purpose, not by the scanner.
MAX_SKEW_DEGREES = 10
SET_MATRIX, MOVE = pikepdf.Operator("Tm"), pikepdf.Operator("Td")


def level_words(path):
    """Each word's position (Tesseract's `Tm` for a line, `Td` for the words after) as a matrix of its own."""
    if path.stat().st_size == 0:  # a page Tesseract gave up on (its time limit): OCRmyPDF skips it
        return
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        page = pdf.pages[0]
        stream = []
        matrix = None
        for operands, op in pikepdf.parse_content_stream(page):
            if op == SET_MATRIX:
                matrix = [float(v) for v in operands]
            elif op == MOVE and matrix is not None:
                tx, ty = (float(v) for v in operands)
                a, b, c, d, e, f = matrix
                matrix = [a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d]
            else:
                stream.append((operands, op))
                continue
            a, b, c, d, e, f = matrix
            level = abs(math.degrees(math.atan2(b, a))) < MAX_SKEW_DEGREES
            stream.append(([math.hypot(a, b), 0, 0, math.hypot(c, d), e, f] if level else matrix, SET_MATRIX))
        page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(stream))
        pdf.save(path)


class LevelWordsEngine(TesseractOcrEngine):
    @staticmethod
    def generate_pdf(input_file, output_pdf, output_text, options):
        TesseractOcrEngine.generate_pdf(input_file, output_pdf, output_text, options)
        level_words(Path(output_pdf))


@hookimpl
def get_ocr_engine():
    return LevelWordsEngine()


class PagesRead:
    """A progress bar of OCRmyPDF's kind (tqdm's protocol) that writes the OCR stage's pages read to a file."""

    def __init__(self, total=0, desc="", unit_scale=1, **_):
        self.path = os.environ.get("QUIRE_OCR_PROGRESS") if desc == "OCR" else None
        # OCRmyPDF counts a page twice (read, then grafted): unit_scale says so.
        self.scale, self.total, self.count = unit_scale or 1, total, 0

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False

    def update(self, n=1, completed=None):
        self.count = completed if completed is not None else self.count + n
        if not self.path:
            return
        partial = f"{self.path}.part"
        with open(partial, "w", encoding="ascii") as f:
            f.write(f"{int(self.count * self.scale)} {int(self.total * self.scale)}")
        os.replace(partial, self.path)  # whole, never half written, when the service reads it


@hookimpl
def get_progressbar_class():
    return PagesRead
