export default function Home() {
  return <h1>Fresh Vovk app</h1>;
}
