/** Tesseract's codes of the languages OCR reads; the engine's language packs are installed for these. */
export const ocrLanguages = ['eng', 'spa', 'fra', 'deu', 'hin', 'ara'] as const;
export type OcrLanguage = (typeof ocrLanguages)[number];
