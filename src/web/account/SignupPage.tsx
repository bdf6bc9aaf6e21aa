// Placeholder screen: the feature issue that owns it replaces this.
export function SignupPage() {
  return <h1 className="text-2xl font-bold">Sign Up</h1>;
}
