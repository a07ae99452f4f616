import { setting } from '@quire/base';

/** Every setting pdf-extract reads besides the kit's, read when it loads: a bad value stops it then, naming the setting. */
export const extractSettings = {
  /**
   * Pages laid out at once, all jobs together. A document's layout is held until it is written, and
   * reading it keeps a pdf.js thread busy: some 0.4 MB a page at the peak for a long book (a 702-page
   * one took the service from 230 MB idle to about 600 MB). Documents wait for their share, longer
   * than this runs alone, so two books at once never double the service's memory, whatever arrives.
   */
  EXTRACT_PAGES_AT_ONCE: setting.wholeNumber(500, 1),
};
