// Placeholder screen: the feature issue that owns it replaces this.
export function ArticlePage() {
  return <h1 className="text-2xl font-bold">Article</h1>;
}
