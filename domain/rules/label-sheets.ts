/**
 * Label formats (issue 15), in PDF points (1/72 in). Thermal labels are one label per page; sheets follow the
 * published Avery layouts: 5160 (Letter, 3 x 10 of 2 5/8 x 1 in), 5163 (Letter, 2 x 5 of 4 x 2 in) and the A4 3 x 8
 * sheet of 63.5 x 33.9 mm labels (Avery L7159).
 */
export const LABEL_FORMATS = ['thermal-4x6', 'thermal-2x1', 'avery-5160', 'avery-5163', 'a4-3x8'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

export const POSTER_FORMATS = ['letter', 'a4'] as const;
export type PosterFormat = (typeof POSTER_FORMATS)[number];

export const LABEL_FORMAT_NAMES: Record<LabelFormat, string> = {
  'thermal-4x6': '4 x 6 in thermal',
  'thermal-2x1': '2 x 1 in thermal',
  'avery-5160': 'Letter sheet, Avery 5160 (30 per page)',
  'avery-5163': 'Letter sheet, Avery 5163 (10 per page)',
  'a4-3x8': 'A4 sheet, 3 x 8 (24 per page)',
};

export const POSTER_FORMAT_NAMES: Record<PosterFormat, string> = { letter: 'US Letter', a4: 'A4' };

const inch = (n: number) => n * 72;
const mm = (n: number) => (n * 72) / 25.4;

export interface SheetLayout {
  pageWidth: number;
  pageHeight: number;
  labelWidth: number;
  labelHeight: number;
  cols: number;
  rows: number;
  /** the first label's top-left corner, from the page's top-left corner */
  left: number;
  top: number;
  /** from one label's left (top) edge to the next one's */
  pitchX: number;
  pitchY: number;
}

const single = (width: number, height: number): SheetLayout => ({
  pageWidth: width,
  pageHeight: height,
  labelWidth: width,
  labelHeight: height,
  cols: 1,
  rows: 1,
  left: 0,
  top: 0,
  pitchX: width,
  pitchY: height,
});

export const SHEET_LAYOUTS: Record<LabelFormat, SheetLayout> = {
  'thermal-4x6': single(inch(4), inch(6)),
  'thermal-2x1': single(inch(2), inch(1)),
  'avery-5160': {
    pageWidth: inch(8.5),
    pageHeight: inch(11),
    labelWidth: inch(2.625),
    labelHeight: inch(1),
    cols: 3,
    rows: 10,
    left: inch(0.1875),
    top: inch(0.5),
    pitchX: inch(2.75),
    pitchY: inch(1),
  },
  'avery-5163': {
    pageWidth: inch(8.5),
    pageHeight: inch(11),
    labelWidth: inch(4),
    labelHeight: inch(2),
    cols: 2,
    rows: 5,
    left: inch(0.15625),
    top: inch(0.5),
    pitchX: inch(4.1875),
    pitchY: inch(2),
  },
  'a4-3x8': {
    pageWidth: mm(210),
    pageHeight: mm(297),
    labelWidth: mm(63.5),
    labelHeight: mm(33.9),
    cols: 3,
    rows: 8,
    left: mm(7.25),
    top: mm(12.9),
    pitchX: mm(66),
    pitchY: mm(33.9),
  },
};

export const POSTER_PAGES: Record<PosterFormat, { width: number; height: number }> = {
  letter: { width: inch(8.5), height: inch(11) },
  a4: { width: mm(210), height: mm(297) },
};

export interface LabelBox {
  /** the label's page (0-based) */
  page: number;
  /** top-left corner from the page's top-left corner, and size, in points */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the n-th label (0-based) goes: across each row, then down, then onto the next page. */
export function labelBox(layout: SheetLayout, n: number): LabelBox {
  const perPage = layout.cols * layout.rows;
  const onPage = n % perPage;
  return {
    page: Math.floor(n / perPage),
    x: layout.left + (onPage % layout.cols) * layout.pitchX,
    y: layout.top + Math.floor(onPage / layout.cols) * layout.pitchY,
    width: layout.labelWidth,
    height: layout.labelHeight,
  };
}
