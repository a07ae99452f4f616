"""An OCRmyPDF plugin: Tesseract's engine, with each recognised word laid on a level baseline.

Tesseract writes a word of a slightly skewed scan along its slanted baseline. PDF readers start a new
word wherever a character's baseline drifts from the word's first (poppler: by half a point), so a long
word on a page turned by a degree or two is read back cut in pieces ("Helv etica"). Laid level from
its first letter, the invisible word keeps its place and width and reads whole. Words turned further
(a sideways table heading, a page read at 90°) keep their angle. Loaded with `--plugin`."""
import math
from pathlib import Path

import pikepdf
from ocrmypdf import hookimpl
from ocrmypdf.builtin_plugins.tesseract_ocr import TesseractOcrEngine

# Beyond this the text is set at an angle on purpose, not by the scanner.
MAX_SKEW_DEGREES = 10


def levelled(operands):
    a, b, c, d, e, f = (float(x) for x in operands)
    if abs(math.degrees(math.atan2(b, a))) >= MAX_SKEW_DEGREES:
        return operands
    return [math.hypot(a, b), 0, 0, math.hypot(c, d), e, f]


def level_words(path):
    if path.stat().st_size == 0:  # a page Tesseract gave up on (its time limit): OCRmyPDF skips it
        return
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        page = pdf.pages[0]
        text_matrix = pikepdf.Operator("Tm")
        stream = [
            (levelled(operands) if op == text_matrix else operands, op)
            for operands, op in pikepdf.parse_content_stream(page)
        ]
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
