import { useEffect, useState } from 'react';

/** A QR code of `text` as a data URL ('' while it is drawn); the QR library loads with the screen that asks. */
export function useQr(text: string): string {
  const [qr, setQr] = useState('');
  useEffect(() => {
    let live = true;
    setQr('');
    if (text)
      void import('qrcode')
        .then((q) => q.toDataURL(text, { margin: 1, width: 360 }))
        .then((url) => live && setQr(url))
        .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  return qr;
}
