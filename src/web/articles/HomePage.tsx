// Placeholder screen: the feature issue that owns it replaces this.
export function HomePage() {
  return <h1 className="text-2xl font-bold">Articles</h1>;
}
