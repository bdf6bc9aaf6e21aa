// Placeholder screen: the feature issue that owns it replaces this.
export function LoginPage() {
  return <h1 className="text-2xl font-bold">Login</h1>;
}
