import type { Matrix } from './matrix.ts';

/** The pdf.js operator codes (its OPS table) that the page's drawing is read from. */
export const ops = {
  setLineWidth: 2,
  save: 10,
  restore: 11,
  transform: 12,
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
  setStrokeRGBColor: 58,
  setFillRGBColor: 59,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  paintImageMaskXObject: 83,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  paintImageXObjectRepeat: 88,
  constructPath: 91,
} as const;

export const strokeOps = new Set<number>([
  ops.stroke,
  ops.closeStroke,
  ops.fillStroke,
  ops.eoFillStroke,
  ops.closeFillStroke,
  ops.closeEOFillStroke,
]);

export const fillOps = new Set<number>([
  ops.fill,
  ops.eoFill,
  ops.fillStroke,
  ops.eoFillStroke,
  ops.closeFillStroke,
  ops.closeEOFillStroke,
]);

/** The part of the PDF graphics state that decides where and whether a shape or image shows. */
export interface GraphicsState {
  /** User space to page space. */
  ctm: Matrix;
  lineWidth: number;
  /** Colours as pdf.js gives them, "#rrggbb". */
  fill: string;
  stroke: string;
}
