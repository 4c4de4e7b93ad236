import { Box, Skeleton } from '@mui/material';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

const SIZE = 200;

/**
 * A QR code of `value` (an otpauth:// URI) drawn by qrcode as SVG, shown as an image: no canvas, and the page's
 * Content-Security-Policy allows `data:` images. Loaded with its library only when a set-up shows it (a chunk of
 * its own, vite.config.ts), so neither the sign-in page nor the screens carry it.
 */
const QrCode = ({ value, label }: { value: string; label: string }) => {
  const [svg, setSvg] = useState<string>();
  useEffect(() => {
    let current = true;
    void qrSvg(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((drawn) => {
      if (current) setSvg(drawn);
    });
    return () => {
      current = false;
    };
  }, [value]);
  if (!svg) return <Skeleton variant="rectangular" width={SIZE} height={SIZE} />;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={SIZE}
      height={SIZE}
      sx={{ display: 'block', bgcolor: '#fff', borderRadius: 1 }}
    />
  );
};

export default QrCode;
