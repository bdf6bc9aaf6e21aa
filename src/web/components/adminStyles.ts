import { secondaryButtonClass } from './formStyles.ts';

// The account forms' buttons fill their card; here they sit beside what they act on, as wide as their text.
const fitted = (buttonClass: string) => buttonClass.replace('w-full', 'w-auto shrink-0');

export const fittedSecondaryButton = fitted(secondaryButtonClass);
export const smallButton = `${fittedSecondaryButton} px-3 py-1 text-sm`;
