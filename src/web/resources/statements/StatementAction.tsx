import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { type RaRecord, useCanAccess, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { titleCase } from '../../../shared/format';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import { userStatementsPath } from './paths';

/** The Statements row action: opens the user's statements (the current month first). */
const StatementButton = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <RowActionButton
      label="app.statements.button"
      ariaLabel={translate('app.statements.buttonRow', { name: titleCase(record.name) })}
      icon={<ReceiptLongIcon fontSize="small" />}
      onClick={() => navigate(userStatementsPath(String(record.id)))}
    />
  );
};

/**
 * The Statements row action of the tier-user lists, for those the role table lets read another user's statement
 * (otherStatements: staff); a tier user reads only its own, from the menu.
 */
export const useStatementAction = (): RowAction[] => {
  const { canAccess } = useCanAccess({ resource: 'otherStatements', action: 'read' });
  return canAccess ? [{ key: 'statement', render: (record) => <StatementButton record={record} /> }] : [];
};
