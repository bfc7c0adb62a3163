export function App() {
  return <div>console</div>;
}
