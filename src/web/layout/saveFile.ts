/**
 * Saves a file the browser holds under `name`, through a link with `download` (as react-admin's CSV export does).
 */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has taken the blob once the click is handled; the URL is no use after it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
