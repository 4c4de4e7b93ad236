import type { DocumentLanguage } from '../../../shared/constants/documents';
import { formatRupees } from '../../../shared/format';
import type { TdsCertificate } from '../../../shared/schemas/tds';
import { textPdf } from './pdf';
import { DOCUMENT_TEXTS } from './texts';
import { indiaDay } from './time';

/** Columns of the certificate's tables, apart enough to read. */
const COLUMN_GAP = '    ';

/** The certificate (Form 16A's data) as a PDF, in English or Hindi: its parts as lines of text. */
export async function tdsCertificatePdf(
  certificate: TdsCertificate,
  lang: DocumentLanguage = 'en',
): Promise<Uint8Array> {
  const words = DOCUMENT_TEXTS[lang].certificate;
  const rupees = (value: number) => formatRupees(value, lang);
  const pan = (panId: string | null) => panId ?? words.noPan;
  const quarter = words.quarters[certificate.quarter] ?? certificate.quarter;
  const pdf = await textPdf(`${words.name} ${certificate.deductee.name} ${certificate.fy} ${quarter}`, lang);
  const { write } = pdf;
  write(words.title, 14, 'bold');
  write(words.section);
  pdf.gap(6);
  write(`${words.deductor}: ${certificate.deductor.name}`);
  write(`${words.deductee}: ${certificate.deductee.name}`);
  write(`${words.panNow}: ${pan(certificate.deductee.panId)}`);
  write(
    words.period(certificate.fy, quarter, indiaDay(certificate.from, lang), indiaDay(certificate.to, lang)),
  );
  pdf.gap(6);
  write(`${words.credited}: ${rupees(certificate.credited)}`, 11, 'bold');
  write(`${words.tds}: ${rupees(certificate.tds)}`, 11, 'bold');
  pdf.gap(6);
  // Form 16A's summary: the tax by the rate and PAN it was withheld at.
  write(words.byRate, 11, 'bold');
  write(words.rateHeading.join(COLUMN_GAP), 10, 'bold');
  for (const row of certificate.rows)
    write(
      [
        pan(row.panId),
        row.rate === null ? words.noTax : `${row.rate}%`,
        rupees(row.credited),
        rupees(row.tds),
      ].join(COLUMN_GAP),
    );
  pdf.gap(6);
  write(words.lineHeading.join(COLUMN_GAP), 10, 'bold');
  for (const line of certificate.lines)
    write(
      [
        indiaDay(line.date, lang),
        words.entries[line.kind],
        pan(line.panId),
        line.credited === null ? '-' : rupees(line.credited),
        `${line.rate}%`,
        rupees(line.tds),
      ].join(COLUMN_GAP),
    );
  return pdf.save();
}
