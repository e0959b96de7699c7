// The scenario of scenario.json, run through one client. A driver wraps its client in a small adapter
// (connect, list, call, read, get, complete, subscribe) and says what the client can do at all; this
// module runs the same steps, with the same checks, for every JavaScript-hosted client. The Python
// driver (python_sdk.py) implements the same steps over the Python SDK.
//
// Every step is reported as one JSON line on stdout: {"step", "ok": true|false|null, "detail"}; ok null
// means not applicable, with the reason in detail.

import { readFileSync } from 'node:fs';

const UPDATE_TIMEOUT_MS = 10_000;

export function report(step, ok, detail = '') {
  process.stdout.write(`${JSON.stringify({ step, ok, detail: String(detail).slice(0, 600) })}\n`);
}

/** "${now+N}" → the time N minutes from now; "${name}" → a value saved by an earlier call. */
export function resolveArgs(value, saved) {
  if (typeof value === 'string') {
    const match = /^\$\{(.+)\}$/.exec(value);
    if (!match) return value;
    const now = /^now\+(\d+)$/.exec(match[1]);
    if (now) return new Date(Date.now() + Number(now[1]) * 60_000).toISOString();
    if (!(match[1] in saved)) throw new Error(`nothing saved as ${match[1]}`);
    return saved[match[1]];
  }
  if (Array.isArray(value)) return value.map((v) => resolveArgs(v, saved));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveArgs(v, saved)]));
  }
  return value;
}

const pick = (object, path) => path.split('.').reduce((o, key) => o?.[key], object);

/** Whether a URI is an instance of an RFC 6570 level-1 template (one path segment per variable). */
export function matchesTemplate(uri, template) {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`).test(uri);
}

function textOf(result) {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join(' ');
}

/** Fails unless the tool result is a success with text and, for a tool with an outputSchema, data. */
function checkToolResult(tool, result) {
  if (result.isError) throw new Error(`isError result: ${textOf(result).slice(0, 300)}`);
  if (!textOf(result)) throw new Error('no text content block');
  if (tool?.outputSchema && (typeof result.structuredContent !== 'object' || !result.structuredContent)) {
    throw new Error('the tool declares an outputSchema but the result has no structuredContent');
  }
}

async function step(name, fn) {
  try {
    const outcome = await fn();
    if (outcome?.na) report(name, null, outcome.na);
    else report(name, true, outcome ?? '');
    return true;
  } catch (error) {
    report(name, false, error?.message ?? String(error));
    return false;
  }
}

/**
 * Runs the scenario of `server` through `adapter`:
 *   adapter.can: { complete, subscribe, progress, cancel, pin } (false or a string saying why not)
 *   adapter.connect({ version? }) → session { negotiated, capabilities, listTools(), listResources(),
 *     listTemplates(), listPrompts(), callTool(name, args, { onProgress, signal }), readResource(uri),
 *     getPrompt(name, args), complete(ref, argument, context), subscribe(uri, onUpdated), unsubscribe(uri),
 *     close(), extraChecks?: { [step]: fn } }
 */
export async function runScenario(adapter, scenario, server) {
  const plan = scenario.servers[server];
  if (!plan) throw new Error(`scenario.json has no server ${server}`);
  const cannot = (what) => ({ na: `the client cannot ${what}: ${adapter.can[what] || 'not supported'}` });
  const supports = (what) => adapter.can[what] === true;

  let session;
  if (
    !(await step('connect', async () => {
      session = await adapter.connect({});
      return `negotiated ${session.negotiated}${session.connectNote ? `; ${session.connectNote}` : ''}`;
    }))
  ) {
    return;
  }
  try {
    let tools = [];
    let templates = [];
    let resources = [];
    let prompts = [];
    await step('tools/list', async () => {
      tools = await session.listTools();
      const missing = tools.map((t) => t.name).filter((n) => !plan.calls.some((c) => c.tool === n));
      if (missing.length) throw new Error(`listed but not in scenario.json: ${missing.join(', ')}`);
      return `${tools.length} tools${session.toolsNote ? `; ${session.toolsNote}` : ''}`;
    });
    await step('resources/list', async () => {
      resources = await session.listResources();
      return `${resources.length} resources`;
    });
    await step('resources/templates/list', async () => {
      templates = await session.listTemplates();
      const missing = templates.map((t) => t.uriTemplate).filter((t) => !(t in (plan.templates ?? {})));
      if (missing.length) throw new Error(`listed but not in scenario.json: ${missing.join(', ')}`);
      return `${templates.length} templates`;
    });
    await step('prompts/list', async () => {
      prompts = await session.listPrompts();
      const missing = prompts.map((p) => p.name).filter((n) => !(n in (plan.prompts ?? {})));
      if (missing.length) throw new Error(`listed but not in scenario.json: ${missing.join(', ')}`);
      return `${prompts.length} prompts`;
    });

    const saved = {};
    for (const call of plan.calls) {
      const tool = tools.find((t) => t.name === call.tool);
      await step(`tools/call ${call.tool}`, async () => {
        const args = resolveArgs(call.arguments, saved);
        let detail = '';
        let result;
        if (call.long && supports('cancel')) {
          detail = await cancelAndResume(session, call.tool, args);
          result = detail.result;
          detail = detail.text;
        } else {
          let progress = 0;
          const onProgress = supports('progress') ? () => progress++ : undefined;
          result = await session.callTool(call.tool, args, { onProgress });
          checkToolResult(tool, result);
          if (call.long) {
            if (supports('progress') && progress === 0) throw new Error('no notifications/progress received');
            detail = supports('progress')
              ? `${progress} progress notifications; ${cannot('cancel').na}`
              : `${cannot('progress').na}; ${cannot('cancel').na}`;
          }
        }
        for (const [name, path] of Object.entries(call.save ?? {})) {
          saved[name] = pick(result.structuredContent, path);
          if (saved[name] === undefined) throw new Error(`structuredContent has no ${path} to save`);
        }
        return detail;
      });
    }

    const staticUris = resources
      .map((r) => r.uri)
      .filter((uri) => !templates.some((t) => matchesTemplate(uri, t.uriTemplate)));
    const reads = [...staticUris, ...templates.map((t) => plan.templates[t.uriTemplate]).filter(Boolean)];
    for (const uri of reads) {
      await step(`resources/read ${uri}`, async () => {
        const result = await session.readResource(uri);
        const contents = result.contents ?? [];
        if (contents.length === 0) throw new Error('no contents');
        for (const c of contents) {
          if (!c.uri || (typeof c.text !== 'string' && typeof c.blob !== 'string')) {
            throw new Error(`a content block without uri and text/blob: ${JSON.stringify(c).slice(0, 200)}`);
          }
        }
        return `${contents.length} block(s)`;
      });
    }

    for (const prompt of prompts) {
      await step(`prompts/get ${prompt.name}`, async () => {
        const result = await session.getPrompt(prompt.name, plan.prompts[prompt.name]);
        if (!result.messages?.length) throw new Error('no messages');
        return `${result.messages.length} message(s)`;
      });
    }

    // MCP Apps: every view the scenario names must be offered to a client that advertises the extension,
    // with its ui:// resource readable as an MCP App; no other tool may claim one.
    await step('views (MCP Apps)', async () => {
      if (!supports('probe views')) return cannot('probe views');
      const infos = await session.appInfo();
      const apps = infos.filter((i) => i.hasApp);
      const wanted = [...(plan.views ?? [])].sort();
      const offered = apps.map((i) => i.toolName).sort();
      if (JSON.stringify(offered) !== JSON.stringify(wanted)) {
        throw new Error(
          `views offered ${JSON.stringify(offered)}, scenario.json names ${JSON.stringify(wanted)}`,
        );
      }
      for (const app of apps) {
        if (app.resourceError) throw new Error(`${app.toolName}: ${app.resourceUri}: ${app.resourceError}`);
        if (app.resourceMimeType !== 'text/html;profile=mcp-app') {
          throw new Error(`${app.toolName}: ${app.resourceUri} is ${app.resourceMimeType}, not an MCP App`);
        }
      }
      return `${apps.length} view(s) valid${apps.length ? `: ${apps.map((a) => `${a.toolName} → ${a.resourceUri}`).join(', ')}` : ''}`;
    });

    for (const completion of plan.completions ?? []) {
      const target = completion.ref.uri ?? completion.ref.name;
      await step(`completion/complete ${target} ${completion.argument.name}`, async () => {
        if (!supports('complete')) return cannot('complete');
        const result = await session.complete(completion.ref, completion.argument, completion.context);
        const values = result.completion?.values ?? [];
        if (!values.includes(completion.expect)) {
          throw new Error(`expected ${completion.expect} among ${JSON.stringify(values)}`);
        }
        return `${values.length} value(s)`;
      });
    }

    if (plan.subscribe) {
      await step(`resources/subscribe ${plan.subscribe.uri}`, async () => {
        if (session.capabilities?.resources?.subscribe !== true) {
          return { na: 'the server does not advertise resources.subscribe' };
        }
        if (!supports('subscribe')) return cannot('subscribe');
        return subscribeAndWait(session, plan.subscribe, tools);
      });
    }
  } finally {
    await session.close().catch(() => {});
  }

  for (const version of scenario.versions) {
    await step(`version ${version}`, async () => {
      if (!supports('pin')) return cannot('pin');
      const pinned = await adapter.connect({ version });
      try {
        if (pinned.negotiated !== version)
          throw new Error(`asked ${version}, negotiated ${pinned.negotiated}`);
        const listed = await pinned.listTools();
        const tool = listed.find((t) => t.name === plan.probe.tool);
        if (!tool) throw new Error(`${plan.probe.tool} not listed`);
        checkToolResult(tool, await pinned.callTool(plan.probe.tool, plan.probe.arguments, {}));
        return `negotiated ${version}; tools/list and ${plan.probe.tool}`;
      } finally {
        await pinned.close().catch(() => {});
      }
    });
  }
}

/**
 * The long tool with a progressToken, cancelled on its first progress notification, then called again.
 * Race-free proof that the server stopped: the second call must drive every remaining leg itself, so at
 * most the one leg already under way may have been completed after the cancellation.
 */
async function cancelAndResume(session, name, args) {
  const controller = new AbortController();
  let before = 0;
  const first = session.callTool(name, args, {
    signal: controller.signal,
    onProgress: () => {
      before++;
      if (before === 1) controller.abort(new Error('cancelled by the scenario'));
    },
  });
  let settled;
  try {
    settled = await first;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  if (settled) throw new Error('the call finished although it was cancelled on its first progress');
  const resumed = await session.callTool(name, args, {});
  if (resumed.isError) throw new Error(`the resumed call failed: ${textOf(resumed).slice(0, 300)}`);
  const data = resumed.structuredContent ?? {};
  const start = data.tramos_hechos - data.tramos_en_esta_llamada;
  if (data.estado !== 'completada' || data.tramos_hechos !== data.tramos_totales) {
    throw new Error(`the resumed call did not complete the route: ${JSON.stringify(data).slice(0, 300)}`);
  }
  if (!(start >= 1 && start <= before + 1)) {
    throw new Error(
      `cancelled after ${before} progress notification(s), but ${start} of ${data.tramos_totales} legs were ` +
        'already driven when the call was resumed: the server went on after notifications/cancelled',
    );
  }
  return {
    result: resumed,
    text: `cancelled on progress 1 with ${start}/${data.tramos_totales} legs driven; resumed to the end`,
  };
}

async function subscribeAndWait(session, { uri, trigger }, tools) {
  let resolveUpdate;
  const updated = new Promise((resolve) => {
    resolveUpdate = resolve;
  });
  await session.subscribe(uri, (updatedUri) => {
    if (updatedUri === uri) resolveUpdate();
  });
  const tool = tools.find((t) => t.name === trigger.tool);
  checkToolResult(tool, await session.callTool(trigger.tool, trigger.arguments, {}));
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no notifications/resources/updated for ${uri} within ${UPDATE_TIMEOUT_MS} ms`)),
      UPDATE_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([updated, timeout]);
  } finally {
    clearTimeout(timer);
  }
  await session.unsubscribe(uri);
  return `notifications/resources/updated after ${trigger.tool}; unsubscribed`;
}

/**
 * The command-line contract between run.mjs and every driver:
 *   --server <app> --transport stdio|http|stateless --scenario <file> --data-dir <dir>
 *   stdio: --node <node binary> --bin <server bundle>;  http/stateless: --url <endpoint>
 */
export function driverOptions() {
  const argv = process.argv.slice(2);
  const get = (name) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const scenario = JSON.parse(readFileSync(get('--scenario'), 'utf8'));
  const server = get('--server');
  const plan = scenario.servers[server] ?? {};
  return {
    server,
    transport: get('--transport'),
    url: get('--url'),
    node: get('--node'),
    scenario,
    // What a host puts in its config for a stdio server: the command, its arguments, its environment.
    command: get('--node'),
    args: [get('--bin'), ...(plan.args ?? []), '--log-level', 'warning'],
    env: { PATH: process.env.PATH ?? '', CODE_CLUSTER_DATA_DIR: get('--data-dir') ?? '' },
  };
}

/** Every page of a paginated list. */
export async function allPages(list, key) {
  const items = [];
  let cursor;
  do {
    const page = await list(cursor);
    items.push(...(page[key] ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * A client that always asks for its newest version is pinned by rewriting `protocolVersion` in the
 * initialize request it sends; everything after that (the version check, the header) is the client's own.
 */
export function pinInitialize(message, version) {
  if (!version || message?.method !== 'initialize') return message;
  return { ...message, params: { ...message.params, protocolVersion: version } };
}
