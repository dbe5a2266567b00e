/**
 * Source files of the demo workspace (`acme/demo-app`). The demo findings are located by
 * searching these texts (see demo.ts), so a finding always underlines the code it talks about.
 * The manifests and lockfiles are in demo-dependency-files.ts, beside the inventory read from them.
 */
import { PACKAGE_JSON, PACKAGE_LOCK_JSON, REQUIREMENTS_TXT } from './demo-dependency-files';

const SERVER_JS = `'use strict';
const express = require('express');
const { exec } = require('child_process');
const path = require('path');
const db = require('./db');
const { login } = require('./auth/login');

const app = express();
app.use(express.json());

// Evaluate a user-supplied formula (demo only: never do this).
app.post('/calc', (req, res) => {
  const result = eval(req.body.expression);
  res.json({ result });
});

app.get('/ping', (req, res) => {
  exec(\`ping -c 1 \${req.query.host}\`, (err, stdout) => {
    res.send(stdout);
  });
});

app.get('/files/:name', (req, res) => {
  const file = path.join(__dirname, 'public', req.params.name);
  res.sendFile(file);
});

app.get('/hello', (req, res) => {
  res.write('<h1>Hello ' + req.query.name + '</h1>');
  res.end();
});

app.get('/users/:id', async (req, res) => {
  res.json(await db.findUser(req.params.id));
});

app.post('/login', login);

app.listen(process.env.PORT || 3000);
module.exports = app;
`;

const DB_JS = `'use strict';
const mysql = require('mysql2/promise');

const pool = mysql.createPool({
  host: process.env.DB_HOST,
  user: 'app',
  password: process.env.DB_PASSWORD,
  database: 'shop',
});

async function findUser(id) {
  const [rows] = await pool.query('SELECT * FROM users WHERE id = ' + id);
  return rows[0];
}

async function searchProducts(term) {
  const sql = \`SELECT * FROM products WHERE name LIKE '%\${term}%'\`;
  const [rows] = await pool.query(sql);
  return rows;
}

function mergeOptions(target, source) {
  for (const key in source) {
    target[key] = source[key];
  }
  return target;
}

module.exports = { findUser, searchProducts, mergeOptions };
`;

const LOGIN_JS = `'use strict';
const crypto = require('crypto');
const jwt = require('jsonwebtoken');
const db = require('../db');

const JWT_SECRET = 'super-secret-demo-key-123';

function hashPassword(password) {
  return crypto.createHash('md5').update(password).digest('hex');
}

async function login(req, res) {
  const user = await db.findUser(req.body.userId);
  if (!user || user.passwordHash !== hashPassword(req.body.password)) {
    res.status(401).json({ error: 'invalid credentials' });
    return;
  }
  debugger;
  const token = jwt.sign({ sub: user.id }, JWT_SECRET, { expiresIn: '1h' });
  res.cookie('session', token);
  res.json({ token });
}

module.exports = { login, hashPassword };
`;

const CONFIG_JS = `'use strict';
// Settings of the service. The keys below were committed by mistake: the demo's secrets findings
// point at them.
module.exports = {
  region: process.env.AWS_REGION || 'eu-west-1',
  aws: {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  slackWebhook: 'https://hooks.slack.com/services/T00DEMO00/B00DEMO00/demoDEMOdemoDEMOdemo0000',
};
`;

/** Only on the branch `feature/checkout-v2`: the new checkout code and its new findings. */
const CHECKOUT_JS = `'use strict';
const mysql = require('mysql2/promise');

const pool = mysql.createPool({ host: process.env.DB_HOST, user: 'app', password: process.env.DB_PASSWORD, database: 'shop' });

// Checkout v2: applies a coupon code to the basket.
async function applyCoupon(req, res) {
  const [rows] = await pool.query("SELECT * FROM coupons WHERE code = '" + req.body.code + "'");
  if (rows.length === 0) {
    res.write('<p>No coupon named ' + req.body.code + '</p>');
    res.end();
    return;
  }
  res.json({ discount: rows[0].discount });
}

module.exports = { applyCoupon };
`;

const README_MD = `# demo-app

A deliberately vulnerable Express service used to demonstrate the AppSec Findings extension.
Its findings come from the local platform server (\`npm run platform -- --demo\`). The branch
\`feature/checkout-v2\` adds \`src/checkout.js\`, with findings that \`main\` does not have.
`;

/** Path (relative to the workspace root) → file text, for a demo workspace. */
export function demoFiles(): Record<string, string> {
  return {
    'src/server.js': SERVER_JS,
    'src/db.js': DB_JS,
    'src/auth/login.js': LOGIN_JS,
    'src/config.js': CONFIG_JS,
    'package.json': PACKAGE_JSON,
    'package-lock.json': PACKAGE_LOCK_JSON,
    'requirements.txt': REQUIREMENTS_TXT,
    'README.md': README_MD,
  };
}

/** Path → file text of what the branch `feature/checkout-v2` adds to the demo workspace. */
export function demoFeatureFiles(): Record<string, string> {
  return { 'src/checkout.js': CHECKOUT_JS };
}

/** 1-based range of the first occurrence of `snippet` in a demo file (of either branch); throws if absent. */
export function locateInDemoFile(path: string, snippet: string): { line: number; column: number; endLine: number; endColumn: number } {
  const text = demoFiles()[path] ?? demoFeatureFiles()[path];
  const at = text === undefined ? -1 : text.indexOf(snippet);
  if (text === undefined || at < 0) throw new Error(`demo file ${path} has no ${JSON.stringify(snippet)}`);
  const before = text.slice(0, at).split('\n');
  const line = before.length;
  const column = before[before.length - 1].length + 1;
  const inside = snippet.split('\n');
  const endLine = line + inside.length - 1;
  const endColumn = (inside.length === 1 ? column : 1) + inside[inside.length - 1].length;
  return { line, column, endLine, endColumn };
}
