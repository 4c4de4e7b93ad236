import UploadFileIcon from '@mui/icons-material/UploadFile';
import { lazyPage } from '../../layout/lazyPage';
import { IMPORT_PATH } from './paths';

const ImportPage = lazyPage(
  () => import('./ImportPage'),
  (module) => module.ImportPage,
);

export default {
  list: ImportPage,
  icon: UploadFileIcon,
  recordRepresentation: () => '',
  /** Bulk import from CSV (issue 45): an admin's screen; App mounts it here. */
  path: IMPORT_PATH,
};
