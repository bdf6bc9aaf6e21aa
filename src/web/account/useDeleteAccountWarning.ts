import { useCallback, useState } from 'react';
import { accountMessages } from '../../shared/accountMessages.ts';
import { countOwnArticles } from './ownArticles.ts';

/**
 * What the Delete account dialog warns of: the account and how many articles go with it,
 * counted afresh by recount() (call it as the dialog opens).
 */
export function useDeleteAccountWarning(uid: string) {
  const [warning, setWarning] = useState<string>(accountMessages.deleteAccountCounting);
  const recount = useCallback(() => {
    setWarning(accountMessages.deleteAccountCounting);
    countOwnArticles(uid).then(
      ({ count, atLeast }) => setWarning(accountMessages.deleteAccountWithArticles(count, atLeast)),
      () => setWarning(accountMessages.deleteAccountUncounted),
    );
  }, [uid]);
  return { warning, recount };
}
