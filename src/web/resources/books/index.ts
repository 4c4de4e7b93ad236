import MenuBookIcon from '@mui/icons-material/MenuBook';
import { lazyPage } from '../../layout/lazyPage';
import { BOOKS_PATH } from './paths';

const BooksPage = lazyPage(
  () => import('./BooksPage'),
  (module) => module.BooksPage,
);

export default {
  list: BooksPage,
  icon: MenuBookIcon,
  recordRepresentation: () => '',
  /** ADMIN's books (issue 43); App mounts the screen here. */
  path: BOOKS_PATH,
};
