import { existsSync, readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { AppError } from '../../http/errors.ts';
import type { ReportBlock as Block } from '@console/contract';

/** The face of Debian's fonts-wqy-microhei collection (config REPORT_FONT); its letters used are embedded in every PDF. */
const FONT_FACE = 'WenQuanYiMicroHei';

/** The font's bytes, read once per path (5 MB: not again for every PDF). */
const fonts = new Map<string, Buffer>();
const fontBytes = (path: string) => fonts.get(path) ?? fonts.set(path, readFileSync(path)).get(path)!;

const A4_MARGIN = 42;
const TEXT = '#262626';
const MUTED = '#8c8c8c';
const RULE = '#d9d9d9';
const HEAD_FILL = '#fafafa';

/** The report as an A4 PDF: its blocks top to bottom, tables cut across pages with their heads repeated, a page number on each. */
export function reportPdf(blocks: Block[], fontPath: string, pageWord: (n: number) => string): Promise<Buffer> {
  if (!existsSync(fontPath)) throw new AppError(503, 'report.fontMissing');
  const doc = new PDFDocument({ size: 'A4', margin: A4_MARGIN, bufferPages: true, info: { Title: blocks[0]?.kind === 'title' ? blocks[0].text : 'Report' } });
  doc.registerFont('body', fontBytes(fontPath), FONT_FACE);
  doc.font('body');
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = A4_MARGIN;
  const width = doc.page.width - 2 * A4_MARGIN;
  const bottom = () => doc.page.height - A4_MARGIN - 14;
  const room = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };

  for (const block of blocks) {
    switch (block.kind) {
      case 'title':
        doc.fontSize(20).fillColor(TEXT).text(block.text, left, doc.y, { width });
        doc.moveDown(0.3).fontSize(10).fillColor(MUTED);
        for (const line of block.lines) doc.text(line, { width });
        doc.moveDown(0.6);
        break;
      case 'heading':
        room(60);
        doc.moveDown(0.6).fontSize(13).fillColor(TEXT).text(block.text, left, doc.y, { width });
        doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).strokeColor(RULE).lineWidth(0.8).stroke();
        doc.moveDown(0.5);
        break;
      case 'paragraph':
        doc.fontSize(9.5).fillColor(TEXT);
        room(doc.heightOfString(block.text, { width }));
        doc.text(block.text, left, doc.y, { width, lineGap: 2 });
        doc.moveDown(0.4);
        break;
      case 'drawing': {
        const scale = Math.min(1, width / block.width);
        room(block.height * scale + 6);
        SVGtoPDF(doc, block.svg, left, doc.y, { width: block.width * scale, height: block.height * scale, fontCallback: () => 'body', assumePt: true });
        doc.y += block.height * scale + 6;
        doc.x = left;
        break;
      }
      case 'table':
        table(doc, block, left, width, room);
        break;
    }
  }
  // Page numbers, once every page is laid out.
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    // Written inside the bottom margin, which would otherwise make pdfkit start a new page.
    doc.page.margins.bottom = 0;
    doc.fontSize(8).fillColor(MUTED).text(pageWord(i + 1), left, doc.page.height - A4_MARGIN + 4, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}

/** A table across the page's width, each column its share; cells wrap, a row never splits, the head repeats on a new page. */
function table(doc: PDFKit.PDFDocument, block: Extract<Block, { kind: 'table' }>, left: number, width: number, room: (height: number) => void) {
  const total = block.columns.reduce((sum, c) => sum + c.weight, 0);
  const widths = block.columns.map((c) => (c.weight / total) * width);
  const pad = 3;
  doc.fontSize(8);
  const heightOf = (cells: (string | number)[]) => Math.max(...cells.map((cell, i) => doc.heightOfString(String(cell), { width: widths[i] - 2 * pad }))) + 2 * pad;
  const drawRow = (cells: (string | number)[], head: boolean) => {
    const height = heightOf(cells);
    const top = doc.y;
    if (head) doc.rect(left, top, width, height).fill(HEAD_FILL);
    let x = left;
    cells.forEach((cell, i) => {
      doc.fillColor(head ? MUTED : TEXT).text(String(cell), x + pad, top + pad, { width: widths[i] - 2 * pad, align: block.columns[i].align ?? 'left' });
      x += widths[i];
    });
    doc.moveTo(left, top + height).lineTo(left + width, top + height).strokeColor(RULE).lineWidth(0.5).stroke();
    doc.y = top + height;
    doc.x = left;
  };
  const head = block.columns.map((c) => c.title);
  room(heightOf(head) + (block.rows[0] ? heightOf(block.rows[0]) : 0));
  drawRow(head, true);
  for (const row of block.rows) {
    const height = heightOf(row);
    if (doc.y + height > doc.page.height - 56) {
      doc.addPage();
      drawRow(head, true);
    }
    drawRow(row, false);
  }
  if (block.more) {
    doc.moveDown(0.3).fontSize(8).fillColor(MUTED).text(block.more, left, doc.y, { width });
  }
  doc.moveDown(0.5);
}
