// Placeholder screen: the feature issue that owns it replaces this.
export function ResetPasswordPage() {
  return <h1 className="text-2xl font-bold">Reset Password</h1>;
}
