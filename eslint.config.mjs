// Type-aware lint. `src/core` must stay free of `vscode` so it runs and is tested in plain Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// What a kind of finding can do is asked of its descriptor (src/core/model/finding-kinds.ts),
// never decided by comparing its issue type with a name: a new kind is then one more entry there.
const KIND_CHECKS = [
  {
    selector:
      "BinaryExpression[operator=/^[!=]==?$/]:matches([left.property.name='issueType'][right.type='Literal'], [right.property.name='issueType'][left.type='Literal'])",
    message:
      'Ask the kind (kindOf(finding).traced, .packages, .fixPullRequests… in src/core/model/finding-kinds.ts) instead of comparing issueType with a name.',
  },
  {
    selector: "SwitchStatement[discriminant.property.name='issueType']",
    message: 'Ask the kind (kindOf(…) in src/core/model/finding-kinds.ts) instead of switching on issueType.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'coverage/**', 'node_modules/**', 'dist-vsix/**', '.test-hosts/**', 'test-results/**', '.stryker-tmp*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/core must not depend on vscode: put host code in src/host, src/views, src/diagnostics or src/commands.' }] },
      ],
    },
  },
  {
    // Notifications and progress render `[label](command:…)` as a live link: every one goes
    // through src/host/notify.ts, which makes the platform's words inert first.
    files: ['src/**/*.ts'],
    ignores: ['src/host/notify.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(showInformationMessage|showWarningMessage|showErrorMessage|withProgress|showInputBox)$/]',
          message:
            'Show messages and progress through src/host/notify.ts (showInformation, showWarning, showError, withProgress, showInput): it makes platform text inert.',
        },
        ...KIND_CHECKS,
      ],
    },
  },
  {
    files: ['src/host/notify.ts'],
    rules: { 'no-restricted-syntax': ['error', ...KIND_CHECKS] },
  },
  {
    // What a place shows (the ref, each kind's query, the primary branch instead of an unscanned
    // one) is decided in one place, src/core/services/place.ts: no reader builds its own.
    files: ['src/**/*.ts'],
    ignores: ['src/core/services/place.ts', 'src/core/services/shown-queries.ts', 'src/core/model/refs.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/shown-queries'],
              importNames: ['shownQuery', 'shownRef'],
              message:
                'Read the place (placeOf, askedPlace, fallbackPlace in src/core/services/place.ts): it decides the ref and the queries for every reader.',
            },
            {
              group: ['**/model/refs'],
              importNames: ['refToShow'],
              message: 'Read the place (src/core/services/place.ts): it decides the ref and its fallback for every reader.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'test/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // node:test's describe/test return promises the runner itself awaits.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'test', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
      },
    },
  },
  {
    // The webview's page script: plain browser JavaScript, no build step.
    files: ['media/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'script',
      parserOptions: { projectService: false, project: null },
      globals: { acquireVsCodeApi: 'readonly', document: 'readonly', Element: 'readonly', window: 'readonly' },
    },
  },
);
