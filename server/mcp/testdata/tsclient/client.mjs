// The official TypeScript MCP client against `docket mcp`.
// usage: node client.mjs COMMAND [ARGS...]  (the command that runs docket mcp)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });
const client = new Client({ name: "ts-sdk-client", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
console.log(`tools: ${tools.length}`);

const created = await client.callTool({ name: "issue_create", arguments: { title: "from the TypeScript client", labels: ["ts"] } });
if (created.isError) throw new Error(`issue_create failed: ${JSON.stringify(created)}`);
const id = created.structuredContent.issue.id;
console.log(`created ${id}`);

const listed = await client.callTool({ name: "issue_list", arguments: {} });
const ids = listed.structuredContent.issues.map((i) => i.id);
if (!ids.includes(id)) throw new Error(`issue_list lacks ${id}: ${ids}`);
for (const i of ids) console.log(`listed ${i}`);

const missing = await client.callTool({ name: "issue_show", arguments: { id: "dk-none" } });
console.log(`unknown id: ${missing.isError ? "isError" : "no error"}`);

await client.close();
