import { ExportButton, useListContext, useNotify, useTranslate } from 'react-admin';
import { useFormat } from '../i18n/format';

/** The most rows an export reads: react-admin's own bound, read in server pages of 100 (dataProvider.ts). */
const EXPORT_ROWS = 1000;

/**
 * react-admin's Export, which reads the list's first rows only. Past them (more than 1,000 rows, or a total the
 * server counted only up to its cap: '1,000+') it says so, so a cut file is never taken for the whole list. Its name
 * is given outright: on a phone react-admin shows an icon, and the disabled one (an empty list) had none.
 */
export const ListExportButton = () => {
  const { total, meta } = useListContext();
  const notify = useNotify();
  const format = useFormat();
  const translate = useTranslate();
  const cut = (total ?? 0) > EXPORT_ROWS || meta?.totalCountsCapped === true;
  return (
    <ExportButton
      maxResults={EXPORT_ROWS}
      aria-label={translate('ra.action.export')}
      onClick={() => {
        if (cut)
          notify('app.list.exportCut', { type: 'info', messageArgs: { count: format.count(EXPORT_ROWS) } });
      }}
    />
  );
};
