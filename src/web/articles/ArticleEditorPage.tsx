// Placeholder screen: the feature issue that owns it replaces this.
export function ArticleEditorPage() {
  return <h1 className="text-2xl font-bold">Add an Article</h1>;
}
