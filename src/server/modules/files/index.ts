/**
 * The file store's face (issues 46 and 51): one way to write a file into the database and to stream it back,
 * used by the applications' pictures and documents (leads) and by import files (imports).
 */
export {
  claimFile,
  FILE_CHUNK_BYTES,
  newFileId,
  readStoredFile,
  storedFile,
  storeFile,
  writeFile,
  writeFileBytes,
} from './store';
