/** A Markdown file imported `with { type: "text" }`: its text, carried in the compiled binary. */
declare module "*.md" {
  const text: string;
  export default text;
}
