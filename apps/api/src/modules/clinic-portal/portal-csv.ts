import type { Figures, FiguresExportQuery, UsageReport } from '@app/contract/clinic-portal';
import { csvLine } from '#api/lib/csv.ts';

/*
 * The portal's CSV files: the figures of one grouping, and the month's usage per machine. Their rows
 * are few (the clinic's machines, doctors, weeks or months), each read once in the clinic's scope and
 * then written; a byte order mark first, as every export of the console, so a spreadsheet reads UTF-8.
 */

const bom = '\uFEFF';

export function* figuresCsv(figures: Figures, by: FiguresExportQuery['by']): Generator<string> {
  const tail = (r: { count: number; minutes: number }) => [r.count, r.minutes];
  switch (by) {
    case 'machine':
      yield `${bom}${csvLine(['Machine', 'Held now', 'Treatments', 'Minutes'])}`;
      for (const r of figures.byMachine) yield csvLine([r.label, r.current ? 'yes' : 'no', ...tail(r)]);
      return;
    case 'doctor':
      yield `${bom}${csvLine(['Doctor', 'Treatments', 'Minutes'])}`;
      for (const r of figures.byDoctor) yield csvLine([r.label, ...tail(r)]);
      return;
    case 'week':
      yield `${bom}${csvLine(['Week starting', 'Treatments', 'Minutes'])}`;
      for (const r of figures.byWeek) yield csvLine([r.week, ...tail(r)]);
      return;
    case 'month':
      yield `${bom}${csvLine(['Month', 'Treatments', 'Minutes'])}`;
      for (const r of figures.byMonth) yield csvLine([r.month, ...tail(r)]);
  }
}

/** Rows written: a grouping's. */
export const figuresRows = (figures: Figures, by: FiguresExportQuery['by']) =>
  ({ machine: figures.byMachine, doctor: figures.byDoctor, week: figures.byWeek, month: figures.byMonth })[by]
    .length;

export function* usageCsv(report: UsageReport): Generator<string> {
  yield `${bom}${csvLine(['Month', 'Machine', 'Serial number', 'Held now', 'Treatments', 'Minutes', 'Days used'])}`;
  for (const r of report.machines)
    yield csvLine([
      report.month,
      r.label,
      r.serialNumber,
      r.current ? 'yes' : 'no',
      r.treatments,
      r.minutes,
      r.daysUsed,
    ]);
  const t = report.total;
  yield csvLine([report.month, 'Total', null, null, t.treatments, t.minutes, t.daysUsed]);
}
