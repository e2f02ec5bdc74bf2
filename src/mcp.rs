//! `outline mcp`: the print modes served as Model Context Protocol tools over stdio (rmcp).
//!
//! A thin adapter with no second implementation of any mode: a tool call's arguments become
//! the argv of the equivalent `outline --print` command (`params`), which the command line's
//! own clap parser, [`crate::config::Config`] and [`crate::print::run`] handle (`call`), so
//! validation, refusals and output are the command line's word for word. This layer adds only
//! what a long-lived server needs: the root (every call carries `--root`), the content hash on
//! text answers, the `max_tokens` cut (`answer`, `budget`), concurrency, cancellation, and
//! the mapping of outcomes to tool results and errors.
//!
//! tokio lives only here: the runtime is built when `outline mcp` starts, never for the viewer
//! or `--print`. Each call runs on tokio's blocking pool, since print is synchronous; a
//! cancelled call makes its output writer fail, which stops the print run at its next write.

mod answer;
mod arguments;
mod budget;
mod call;
mod framing;
mod params;

use crate::cli::McpArgs;
use crate::error::{Error, Result};
use answer::Context;
use arguments::Parameters;
use params::{
    FindParams, GrepParams, LinesParams, OutlineParams, ReadParams, RefsParams, Request,
    SymbolParams,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the server tells a client at `initialize`: the habit the tools are built for.
const INSTRUCTIONS: &str = "outline shows the structure of code and documents and reads exactly \
the part you need. Locate, then read: `find` where a name is defined, `grep` a pattern (hits \
grouped under the function or class around them), `refs` who uses a name, or `outline` a folder \
or file to see its entries with line numbers; then `symbol` to read one entry's body, `lines` \
for a range, `read` for a first look at a file. Paths are relative to the server's root. Answers about one file end with a \
`hash: xxh3:...` line (JSON answers carry \"hash\"); pass it as `if_hash` to symbol, read or \
lines to get a \"stale\" error instead of lines that changed. Every answer fits `max_tokens`; a \
cut answer ends with a note saying how to ask for the rest. Notes may name command-line flags: \
--lines A:B is the lines tool's range, --symbol NAME the symbol tool's query.";

/// Serves MCP on standard input and output until the client disconnects.
pub fn serve(args: McpArgs) -> Result<()> {
    let root = resolve_root(args.root.as_deref())?;
    if args.max_tokens < answer::MIN_MAX_TOKENS {
        return Err(Error::Usage(format!(
            "--max-tokens must be at least {}, not {}",
            answer::MIN_MAX_TOKENS,
            args.max_tokens
        )));
    }
    // Relative paths in calls resolve against the root, and answers show them as given.
    std::env::set_current_dir(&root).map_err(|e| Error::io(&root, e))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("<tokio runtime>", e))?;
    let served = runtime.block_on(async move {
        // Lines that are not JSON are answered with a parse error before rmcp sees them.
        let (input, output) = rmcp::transport::stdio_pipes();
        let checked = framing::checked(input, output);
        let server = Server::new(root, args.max_tokens, checked.gone);
        let running = server
            .serve((checked.input, checked.output))
            .await
            .map_err(transport_error)?;
        // Load the token vocabulary (~100 ms) off the request path, before the first budget
        // that needs exact counts.
        std::thread::spawn(|| budget::count("warm up"));
        running.waiting().await.map_err(transport_error)?;
        Ok(())
    });
    // Calls still running on the blocking pool answer nobody now: do not wait for them.
    runtime.shutdown_background();
    served
}

fn resolve_root(root: Option<&Path>) -> Result<PathBuf> {
    let root = root.unwrap_or(Path::new("."));
    let resolved = root
        .canonicalize()
        .map_err(|e| Error::Usage(format!("--root {}: {e}", root.display())))?;
    if !resolved.is_dir() {
        return Err(Error::Usage(format!(
            "--root {}: not a directory",
            root.display()
        )));
    }
    Ok(resolved)
}

fn transport_error(err: impl std::fmt::Display) -> Error {
    Error::io("<mcp stdio>", std::io::Error::other(err.to_string()))
}

/// The MCP server: the root every path resolves in, the default budget, and the tools.
#[derive(Clone)]
pub struct Server {
    root: Arc<Path>,
    max_tokens: usize,
    client_gone: framing::Gone,
    tool_router: ToolRouter<Server>,
}

#[tool_router]
impl Server {
    /// A server for `root` (canonical) with `max_tokens` as the default budget, whose calls
    /// stop when `client_gone` resolves.
    fn new(root: PathBuf, max_tokens: usize, client_gone: framing::Gone) -> Server {
        Server {
            root: root.into(),
            max_tokens,
            client_gone,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Outline a file or folder: classes, functions, headings, keys..., one line \
each with its line number and signature, nested by depth. A folder lists every supported file \
with its top-level entries. Start here to find where things are, then read one entry with \
`symbol`. Reads Python, Rust, Go, JavaScript, TypeScript, C, C++, Java, C#, Kotlin, Swift, PHP, shell, \
Lua, Ruby, SQL, \
Markdown, JSON, YAML, TOML, HTML, CSS, Makefiles, Dockerfiles. Example: {\"path\": \"src/app.py\", \
\"depth\": 2}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn outline(
        &self,
        Parameters(params): Parameters<OutlineParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "Read one symbol's source as numbered lines, by name (\"load\"), qualified \
name (\"Loader.load\"), outline id (\"2.1\") or \"@LINE\" (the entry around that line), without \
reading the rest of the file. With depth, list its members instead (for a type in a folder, \
those of every impl, extension and receiver-method file too). Example: {\"path\": \
\"src/app.py\", \"query\": \"Loader.load\"}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn symbol(
        &self,
        Parameters(params): Parameters<SymbolParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "First look at a file: all of it, numbered, when it has at most 200 lines; \
else its first 80 lines, its outline and its last 40, with a note on reading the middle. \
Example: {\"path\": \"README.md\"}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read(
        &self,
        Parameters(params): Parameters<ReadParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "Read a range of a file's lines, numbered: \"A:B\", \"A:+N\" or \"-N:\" \
(the last N). Example: {\"path\": \"src/app.py\", \"range\": \"120:180\"}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn lines(
        &self,
        Parameters(params): Parameters<LinesParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "Find where something is defined, across files and folders: one line per \
definition (path:Lstart-end kind signature, its name qualified), best matches first; with one match, its \
body. The query is a name, Type.method, a glob (\"set_*\") or a kind and a name (\"struct \
Worker\"). A type's name also lists what adds to it anywhere: impl blocks, extensions, \
partial or reopened classes, one line per file of Go receiver methods or Kotlin extension \
functions; then where one is built (constructor calls, factories' callers) and what returns \
one. Example: {\"query\": \"Loader.load\", \"path\": \"src\"}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn find(
        &self,
        Parameters(params): Parameters<FindParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "Search files for a regular expression; hits are grouped under the \
function, class or heading that encloses them (path:Lstart-end kind qualname, the path left \
out when the line above named it; then `line: text`). function_context: true answers with \
each enclosing function whole when short (<= 60 lines), else the blocks around each hit and \
the catch/except or error check after it: the message and what is done with it, in one call. code_only skips comments and strings. Example: \
{\"pattern\": \"open\\\\(\", \"path\": \"src\", \"glob\": \"*.py\", \"function_context\": true}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn grep(
        &self,
        Parameters(params): Parameters<GrepParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }

    #[tool(
        description = "Where a name is used in code (never in comments or strings), grouped by \
the symbol that uses it, definitions first: who calls a function, who reads a field. \
\"Type.method\" keeps member uses only; \"name(PARAMS\" one overload's calls (by argument \
count); function_context shows how each user handles it (the user whole when short, else \
the blocks around the use and the catch/except or error check after it); depth (2-6) gives \
callers of callers as one tree. Example: {\"name\": \"is_hidden\", \"path\": \"src\", \
\"function_context\": true}",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn refs(
        &self,
        Parameters(params): Parameters<RefsParams>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.call(params.request(), context).await
    }
}

impl Server {
    /// Runs `request` on the blocking pool; the client's cancellation or departure stops it.
    async fn call(&self, request: Request, context: RequestContext<RoleServer>) -> CallToolResult {
        let cancel = Arc::new(AtomicBool::new(false));
        let job = {
            let (root, cancel) = (self.root.clone(), cancel.clone());
            let max_tokens = request.max_tokens.unwrap_or(self.max_tokens);
            tokio::task::spawn_blocking(move || {
                let context = Context {
                    root: &root,
                    max_tokens,
                    cancel: &cancel,
                };
                answer::answer(&request, &context)
            })
        };
        tokio::select! {
            joined = job => joined.unwrap_or_else(|err| {
                error(format!("internal error, the server goes on: {err}"))
            }),
            () = context.ct.cancelled() => {
                cancel.store(true, Ordering::Relaxed);
                error("cancelled".into())
            }
            // rmcp would wait up to 5 s for this call once its input ends; nobody is left to
            // read the answer, and the server can end now.
            () = self.client_gone.clone().wait() => {
                cancel.store(true, Ordering::Relaxed);
                error("cancelled: the client went away".into())
            }
        }
    }
}

fn error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("outline", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}
