"""An image as a PDF for OCR: each frame a page at its stated resolution, or at FALLBACK_DPI when it
states none or one too low to be a scan's. Frames that img2pdf cannot take as they are (transparency,
CMYK without a profile, 16-bit) are flattened onto white first; JPEGs and plain PNGs go in untouched.
Run by Debian's python3, with the PIL and img2pdf that OCRmyPDF itself uses.
Arguments: image, PDF to write, most pixels a frame may have, most frames.
Exit 3: beyond a limit (the message, for the visitor, names it); exit 2: not an image it can read."""
import io
import sys

import img2pdf
from PIL import Image, ImageSequence

FALLBACK_DPI = 300
# A stated resolution this low is a screen's, not a scanner's (OCRmyPDF refuses it likewise).
CREDIBLE_DPI = 100

source, target = sys.argv[1], sys.argv[2]
max_pixels, max_frames = int(sys.argv[3]), int(sys.argv[4])
Image.MAX_IMAGE_PIXELS = None  # the limit is checked below, from the headers, before anything is decoded

try:
    image = Image.open(source)
    frames = getattr(image, "n_frames", 1)
    largest = 0
    sizes = []
    for i in range(min(frames, max_frames + 1)):
        image.seek(i)
        sizes.append(image.size)
        largest = max(largest, image.size[0] * image.size[1])
except Exception as err:  # noqa: BLE001 - any failure to read is the input's
    print(f"unreadable image: {err}", file=sys.stderr)
    sys.exit(2)
if frames > max_frames:
    print(f"The image has more than {max_frames} pages; OCR reads at most {max_frames}.", file=sys.stderr)
    sys.exit(3)
if largest > max_pixels:
    print(f"The image is too large to read: OCR reads at most {max_pixels // 1_000_000} megapixels a page.", file=sys.stderr)
    sys.exit(3)


def usable(frame):
    if frame.mode in ("RGBA", "LA", "PA") or "transparency" in frame.info:
        return False
    if frame.mode == "CMYK" and "icc_profile" not in frame.info:
        return False
    return frame.mode in ("1", "L", "P", "RGB", "CMYK")


def flattened(frame):
    rgba = frame.convert("RGBA")
    white = Image.new("RGB", rgba.size, (255, 255, 255))
    white.paste(rgba, mask=rgba.getchannel("A"))
    out = io.BytesIO()
    white.save(out, format="PNG")
    return out.getvalue()


dpi = image.info.get("dpi")
if not dpi or min(dpi) < CREDIBLE_DPI:
    dpi = (FALLBACK_DPI, FALLBACK_DPI)


def within_page(stated, axis):
    """A resolution at which every frame's page is 4 to 14,400 PDF units along this axis, as PDF allows:
    a tiny image (an icon, a pixel) gets a larger page, a vast one a smaller."""
    smallest = min(size[axis] for size in sizes)
    largest_side = max(size[axis] for size in sizes)
    return max(min(stated, smallest * 72 / 4), largest_side * 72 / 14400)


dpi = (within_page(dpi[0], 0), within_page(dpi[1], 1))
try:
    image.seek(0)
    if all(usable(f) for f in ImageSequence.Iterator(image)):
        pages = [source]
    else:
        pages = [flattened(f) for f in ImageSequence.Iterator(image)]
    layout = img2pdf.get_fixed_dpi_layout_fun((dpi[0], dpi[1]))
    with open(target, "wb") as out:
        img2pdf.convert(*pages, layout_fun=layout, outputstream=out)
except Exception as err:  # noqa: BLE001
    print(f"image not converted: {err}", file=sys.stderr)
    sys.exit(2)
