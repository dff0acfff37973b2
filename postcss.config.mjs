// Tailwind CSS 4 runs as a PostCSS plugin; its configuration lives in app/globals.css (@theme).
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
