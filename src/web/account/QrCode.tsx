import { useEffect, useState } from 'react';

/**
 * A QR code drawn in the browser (the secret never goes to another service). The `qrcode` library
 * loads only when one is shown, so no other screen's JavaScript grows with it.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then((drawn) => {
        if (live) setSvg(drawn);
      });
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="two-step-qr"
      // Dark modules on white in both colour schemes: scanners need the contrast.
      className="size-48 self-center rounded-md bg-white p-1 [&>svg]:size-full"
      // The SVG is made here from our own text by the library, not from anything a person typed.
      dangerouslySetInnerHTML={svg === null ? undefined : { __html: svg }}
    />
  );
}
