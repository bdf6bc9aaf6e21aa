// Placeholder screen: the feature issue that owns it replaces this.
export function ProfilePage() {
  return <h1 className="text-2xl font-bold">Profile</h1>;
}
