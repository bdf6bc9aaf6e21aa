// Placeholder screen: the feature issue that owns it replaces this.
export function ForgotPasswordPage() {
  return <h1 className="text-2xl font-bold">Forgot Password</h1>;
}
