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

// Every tool has a title and annotations; the read-only ones say so.
for (const t of tools) {
  if (!t.title || !t.annotations || t.annotations.openWorldHint !== false) throw new Error(`tool ${t.name} lacks a title or annotations: ${JSON.stringify(t)}`);
}
const ro = tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name).sort();
console.log(`read-only: ${ro.join(",")}`);

// Pages: limit 1 gives a nextCursor that reaches the other issue.
const second = await client.callTool({ name: "issue_create", arguments: { title: "second from TypeScript", priority: 0 } });
const id2 = second.structuredContent.issue.id;
const page1 = await client.callTool({ name: "issue_list", arguments: { limit: 1 } });
if (!page1.structuredContent.nextCursor) throw new Error(`no nextCursor: ${JSON.stringify(page1.structuredContent)}`);
const page2 = await client.callTool({ name: "issue_list", arguments: { limit: 1, cursor: page1.structuredContent.nextCursor } });
console.log(`pages: ${page1.structuredContent.issues[0].id} then ${page2.structuredContent.issues[0].id} of ${page1.structuredContent.total}`);

// Dependencies, the blocked view, search, close and reopen.
const dep = await client.callTool({ name: "dep_add", arguments: { id: id2, type: "blocks", target: id } });
if (dep.isError) throw new Error(`dep_add failed: ${JSON.stringify(dep)}`);
const blocked = await client.callTool({ name: "issue_blocked", arguments: {} });
console.log(`blocked: ${blocked.structuredContent.issues.map((i) => i.id).join(",")}`);
const found = await client.callTool({ name: "issue_search", arguments: { query: "typescript second" } });
console.log(`search: ${found.structuredContent.issues.map((i) => i.id).join(",")}`);
await client.callTool({ name: "dep_remove", arguments: { id: id2, type: "blocks", target: id } });
const closed = await client.callTool({ name: "issue_close", arguments: { id: id2, reason: "done" } });
const reopened = await client.callTool({ name: "issue_reopen", arguments: { id: id2 } });
console.log(`reopen: ${closed.structuredContent.issue.status} -> ${reopened.structuredContent.issue.status}; text: ${reopened.content[0].text}`);

const missing = await client.callTool({ name: "issue_show", arguments: { id: "dk-none" } });
console.log(`unknown id: ${missing.isError ? "isError" : "no error"}`);

// D81: declared capabilities, a resource, a prompt, and claims_check's progress.
const caps = client.getServerCapabilities();
console.log(`capabilities: ${JSON.stringify(Object.fromEntries(Object.keys(caps).sort().map((k) => [k, caps[k]])))}`);
const issue = await client.readResource({ uri: `issue://${id}` });
console.log(`resource: ${issue.contents[0].uri} ${issue.contents[0].mimeType} ${JSON.parse(issue.contents[0].text).title}`);
const register = await client.readResource({ uri: "decision://register" });
console.log(`register: ${JSON.parse(register.contents[0].text).decisions.map((d) => d.id).join(",")}`);
const completed = await client.complete({ ref: { type: "ref/resource", uri: "issue://{id}" }, argument: { name: "id", value: id.slice(0, 4) } });
console.log(`completion: ${completed.completion.values.includes(id) ? "has" : "lacks"} ${id}`);
const prompt = await client.getPrompt({ name: "triage_ready", arguments: { limit: "10" } });
console.log(`prompt: ${prompt.messages[0].content.text.split("\n")[0]}`);
const steps = [];
const checked = await client.callTool({ name: "claims_check", arguments: {} }, undefined, {
  onprogress: (p) => steps.push(`${p.progress}/${p.total}`),
});
// The last step (2/2) is sent just before the reply, and the client may
// drop it once the reply has arrived: the first two are the test's.
console.log(`progress: ${steps.slice(0, 2).join(" ")}; text: ${checked.content[0].text.split("\n")[0]}`);

await client.close();
