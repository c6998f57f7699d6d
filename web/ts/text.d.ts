declare module "*.dlx" {
  const text: string;
  export default text;
}
