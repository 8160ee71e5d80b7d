import { chromium } from '@playwright/test';
import fs from 'node:fs';
const [out, ...files] = process.argv.slice(2);
const imgs = files.map((f) => `<figure><img src="data:image/png;base64,${fs.readFileSync(f).toString('base64')}"><figcaption>${f.split('/').pop()}</figcaption></figure>`).join('');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1560, height: 800 } });
await page.setContent(`<style>body{margin:0;display:grid;grid-template-columns:repeat(3,1fr);gap:6px;background:#f0f}figure{margin:0;background:#fff}img{width:100%;display:block}figcaption{font:12px sans-serif}</style>${imgs}`);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
