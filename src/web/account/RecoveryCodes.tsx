import { useState } from 'react';
import { secondaryButtonClass } from '../components/formStyles.ts';
import { twoStepMessages } from './twoStepMessages.ts';

/** The recovery codes, shown once after two-step verification is turned on, with Copy and Download. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className="flex flex-col gap-3">
      <h3 className="font-semibold">{twoStepMessages.recoveryTitle}</h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">{twoStepMessages.recoveryIntro}</p>
      <ol
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border border-slate-300 p-3 font-mono text-sm dark:border-slate-700"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          {twoStepMessages.copy}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={download}>
          {twoStepMessages.download}
        </button>
      </div>
      <p role="status" className="text-sm text-green-800 dark:text-green-300">
        {copied ? twoStepMessages.copied : ''}
      </p>
      <button type="button" className={secondaryButtonClass} onClick={onDone}>
        {twoStepMessages.done}
      </button>
    </div>
  );
}
