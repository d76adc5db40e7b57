export default function NotFoundPage() {
  return (
    <div className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">404 Page Not Found</h1>
      <p className="mt-4 text-sm text-gray-600">Did you forget to add the page to the router?</p>
    </div>
  );
}
