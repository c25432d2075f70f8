//! The ports: each published tool of `tests/published/*.json` as the Rust type a careful
//! toolgen user would write for it (doc comments for descriptions, `Option` for what may be left
//! out, enums for string lists, `#[tool(..)]` for bounds and defaults), listed in [`PORTS`] with
//! the file it is compared with. See `SOURCES.md` for where each original comes from.

#![allow(dead_code)]

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use toolgen::{Patch, Tool, ToolSchema};

/// A port: the file (without `.json`) that holds the original, and the port's schema and parser.
pub struct Port {
    pub file: &'static str,
    pub schema: &'static str,
    pub parse: fn(&str) -> Result<(), String>,
}

/// Parses arguments as the port's `parse_args` reads them, keeping only the verdict.
fn parse<T: Tool>(args: &str) -> Result<(), String> {
    T::parse_args(args).map(drop).map_err(|e| e.to_string())
}

macro_rules! ports {
    ($($file:literal => $port:ty,)*) => {
        &[$(Port { file: $file, schema: <$port>::INPUT_SCHEMA, parse: parse::<$port> },)*]
    };
}

/// Every port, by the file it is compared with.
pub const PORTS: &[Port] = ports! {
    "anthropic_cookbook__add_numbers" => AnthropicCookbookAddNumbers,
    "anthropic_cookbook__calculator" => AnthropicCookbookCalculator,
    "anthropic_cookbook__cancel_order" => AnthropicCookbookCancelOrder,
    "anthropic_cookbook__get_customer_info" => AnthropicCookbookGetCustomerInfo,
    "anthropic_cookbook__get_customer_info_by_username" => AnthropicCookbookGetCustomerInfoByUsername,
    "anthropic_cookbook__get_order_details" => AnthropicCookbookGetOrderDetails,
    "anthropic_cookbook__print_all_characteristics" => AnthropicCookbookPrintAllCharacteristics,
    "anthropic_cookbook__print_classification" => AnthropicCookbookPrintClassification,
    "anthropic_cookbook__print_entities" => AnthropicCookbookPrintEntities,
    "anthropic_cookbook__print_nutrition_info" => AnthropicCookbookPrintNutritionInfo,
    "anthropic_cookbook__print_sentiment_scores" => AnthropicCookbookPrintSentimentScores,
    "anthropic_cookbook__print_summary" => AnthropicCookbookPrintSummary,
    "anthropic_cookbook__send_text_to_user" => AnthropicCookbookSendTextToUser,
    "anthropic_cookbook__web_search" => AnthropicCookbookWebSearch,
    "github__add_issue_comment" => GithubAddIssueComment,
    "github__assign_copilot_to_issue_with_intent" => GithubAssignCopilotToIssueWithIntent,
    "github__create_branch" => GithubCreateBranch,
    "github__create_gist" => GithubCreateGist,
    "github__create_issue" => GithubCreateIssue,
    "github__create_or_update_file" => GithubCreateOrUpdateFile,
    "github__create_pull_request" => GithubCreatePullRequest,
    "github__create_repository" => GithubCreateRepository,
    "github__delete_file" => GithubDeleteFile,
    "github__dismiss_notification" => GithubDismissNotification,
    "github__fork_repository" => GithubForkRepository,
    "github__get_commit" => GithubGetCommit,
    "github__get_file_contents" => GithubGetFileContents,
    "github__get_job_logs" => GithubGetJobLogs,
    "github__get_label" => GithubGetLabel,
    "github__get_me" => GithubGetMe,
    "github__get_release_by_tag" => GithubGetReleaseByTag,
    "github__get_repository_tree" => GithubGetRepositoryTree,
    "github__issue_write" => GithubIssueWrite,
    "github__list_branches" => GithubListBranches,
    "github__list_commits" => GithubListCommits,
    "github__list_global_security_advisories" => GithubListGlobalSecurityAdvisories,
    "github__list_issues" => GithubListIssues,
    "github__list_notifications" => GithubListNotifications,
    "github__list_pull_requests" => GithubListPullRequests,
    "github__list_releases" => GithubListReleases,
    "github__list_tags" => GithubListTags,
    "github__mark_all_notifications_read" => GithubMarkAllNotificationsRead,
    "github__merge_pull_request" => GithubMergePullRequest,
    "github__push_files" => GithubPushFiles,
    "github__search_code" => GithubSearchCode,
    "github__search_repositories" => GithubSearchRepositories,
    "github__search_users" => GithubSearchUsers,
    "github__update_issue_assignees" => GithubUpdateIssueAssignees,
    "github__update_issue_labels" => GithubUpdateIssueLabels,
    "github__update_pull_request" => GithubUpdatePullRequest,
    "mcp_time__convert_time" => McpTimeConvertTime,
    "mcp_time__get_current_time" => McpTimeGetCurrentTime,
    "mcp_git__git_status" => McpGitGitStatus,
    "mcp_git__git_diff_unstaged" => McpGitGitDiffUnstaged,
    "mcp_git__git_diff_staged" => McpGitGitDiffStaged,
    "mcp_git__git_diff" => McpGitGitDiff,
    "mcp_git__git_commit" => McpGitGitCommit,
    "mcp_git__git_add" => McpGitGitAdd,
    "mcp_git__git_reset" => McpGitGitReset,
    "mcp_git__git_log" => McpGitGitLog,
    "mcp_git__git_create_branch" => McpGitGitCreateBranch,
    "mcp_git__git_checkout" => McpGitGitCheckout,
    "mcp_git__git_show" => McpGitGitShow,
    "mcp_git__git_branch" => McpGitGitBranch,
    "mcp_fetch__fetch" => McpFetchFetch,
    "github__projects_write" => GithubProjectsWrite,
    "github__set_issue_fields" => GithubSetIssueFields,
    "github__update_issue_type" => GithubUpdateIssueType,
    "openai_cookbook__get_current_weather" => OpenaiCookbookGetCurrentWeather,
    "openai_cookbook__get_n_day_weather_forecast" => OpenaiCookbookGetNDayWeatherForecast,
    "openai_agents__fetch_weather" => OpenaiAgentsFetchWeather,
    "openai_agents__fetch_data" => OpenaiAgentsFetchData,
    "openai_agents__process_user" => OpenaiAgentsProcessUser,
    "playwright__browser_click" => PlaywrightBrowserClick,
    "playwright__browser_close" => PlaywrightBrowserClose,
    "playwright__browser_console_messages" => PlaywrightBrowserConsoleMessages,
    "playwright__browser_drag" => PlaywrightBrowserDrag,
    "playwright__browser_drop" => PlaywrightBrowserDrop,
    "playwright__browser_evaluate" => PlaywrightBrowserEvaluate,
    "playwright__browser_file_upload" => PlaywrightBrowserFileUpload,
    "playwright__browser_fill_form" => PlaywrightBrowserFillForm,
    "playwright__browser_find" => PlaywrightBrowserFind,
    "playwright__browser_handle_dialog" => PlaywrightBrowserHandleDialog,
    "playwright__browser_hover" => PlaywrightBrowserHover,
    "playwright__browser_navigate" => PlaywrightBrowserNavigate,
    "playwright__browser_navigate_back" => PlaywrightBrowserNavigateBack,
    "playwright__browser_network_request" => PlaywrightBrowserNetworkRequest,
    "playwright__browser_network_requests" => PlaywrightBrowserNetworkRequests,
    "playwright__browser_press_key" => PlaywrightBrowserPressKey,
    "playwright__browser_resize" => PlaywrightBrowserResize,
    "playwright__browser_run_code_unsafe" => PlaywrightBrowserRunCodeUnsafe,
    "playwright__browser_select_option" => PlaywrightBrowserSelectOption,
    "playwright__browser_snapshot" => PlaywrightBrowserSnapshot,
    "playwright__browser_tabs" => PlaywrightBrowserTabs,
    "playwright__browser_take_screenshot" => PlaywrightBrowserTakeScreenshot,
    "playwright__browser_type" => PlaywrightBrowserType,
    "playwright__browser_wait_for" => PlaywrightBrowserWaitFor,
};

// anthropic_cookbook__add_numbers.json
/// Adds two number
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "calculator")]
pub struct AnthropicCookbookAddNumbers {
    /// first number to add
    pub num1: f64,
    /// second number to add
    pub num2: f64,
}

// anthropic_cookbook__calculator.json
/// A simple calculator that performs basic arithmetic operations.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "calculator")]
pub struct AnthropicCookbookCalculator {
    /// The mathematical expression to evaluate (e.g., '2 + 3 * 4').
    pub expression: String,
}

// anthropic_cookbook__cancel_order.json
/// Cancels an order based on the provided order ID. Returns a confirmation message if the cancellation is successful.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "cancel_order")]
pub struct AnthropicCookbookCancelOrder {
    /// The unique identifier for the order to be cancelled.
    pub order_id: String,
}

// anthropic_cookbook__get_customer_info.json
/// Retrieves customer information based on their customer ID. Returns the customer's name, email, and phone number.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_customer_info")]
pub struct AnthropicCookbookGetCustomerInfo {
    /// The unique identifier for the customer.
    pub customer_id: String,
}

// anthropic_cookbook__get_customer_info_by_username.json
/// gets information on a customer based on the customer's username.  Response includes email, username, and previous purchases. Only call this tool once a user has provided you with their username
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_customer_info")]
pub struct AnthropicCookbookGetCustomerInfoByUsername {
    /// The username of the user in question.
    pub username: String,
}

// anthropic_cookbook__get_order_details.json
/// Retrieves the details of a specific order based on the order ID. Returns the order ID, product name, quantity, price, and order status.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_order_details")]
pub struct AnthropicCookbookGetOrderDetails {
    /// The unique identifier for the order.
    pub order_id: String,
}

// anthropic_cookbook__print_all_characteristics.json
/// Prints all characteristics which are provided.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_all_characteristics")]
pub struct AnthropicCookbookPrintAllCharacteristics {
    /// Each characteristic by its name (`age`, `eye_color`), with its value.
    #[serde(flatten)]
    #[tool(skip_doc)]
    pub characteristics: HashMap<String, Value>,
}

// anthropic_cookbook__print_classification.json
/// Prints the classification results.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_classification")]
pub struct AnthropicCookbookPrintClassification {
    pub categories: Vec<AnthropicCookbookCategory>,
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct AnthropicCookbookCategory {
    /// The category name.
    pub name: String,
    /// The classification score for the category, ranging from 0.0 to 1.0.
    pub score: f64,
}

// anthropic_cookbook__print_entities.json
/// Prints extract named entities.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_entities")]
pub struct AnthropicCookbookPrintEntities {
    pub entities: Vec<AnthropicCookbookEntity>,
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct AnthropicCookbookEntity {
    /// The extracted entity name.
    pub name: String,
    /// The entity type (e.g., PERSON, ORGANIZATION, LOCATION).
    pub r#type: String,
    /// The context in which the entity appears in the text.
    pub context: String,
}

// anthropic_cookbook__print_nutrition_info.json
/// Extracts nutrition information from an image of a nutrition label
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_nutrition_info")]
pub struct AnthropicCookbookPrintNutritionInfo {
    /// The number of calories per serving
    pub calories: i64,
    /// The amount of total fat in grams per serving
    pub total_fat: i64,
    /// The amount of cholesterol in milligrams per serving
    pub cholesterol: i64,
    /// The amount of total carbohydrates in grams per serving
    pub total_carbs: i64,
    /// The amount of protein in grams per serving
    pub protein: i64,
}

// anthropic_cookbook__print_sentiment_scores.json
/// Prints the sentiment scores of a given text.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_sentiment_scores")]
pub struct AnthropicCookbookPrintSentimentScores {
    /// The positive sentiment score, ranging from 0.0 to 1.0.
    pub positive_score: f64,
    /// The negative sentiment score, ranging from 0.0 to 1.0.
    pub negative_score: f64,
    /// The neutral sentiment score, ranging from 0.0 to 1.0.
    pub neutral_score: f64,
}

// anthropic_cookbook__print_summary.json
/// Prints a summary of the article.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "print_summary")]
pub struct AnthropicCookbookPrintSummary {
    /// Name of the article author
    pub author: String,
    /// Array of topics, e.g. ["tech", "politics"]. Should be as specific as possible, and can overlap.
    pub topics: Vec<String>,
    /// Summary of the article. One or two paragraphs max.
    pub summary: String,
    /// Coherence of the article's key points, 0-100 (inclusive)
    pub coherence: i64,
    /// Article's persuasion score, 0.0-1.0 (inclusive)
    pub persuasion: f64,
    /// Required by the published tool, which describes it no further: any value.
    #[tool(skip_doc)]
    pub counterpoint: Value,
}

// anthropic_cookbook__send_text_to_user.json
/// Sends a text message to a user
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "send_text_to_user")]
pub struct AnthropicCookbookSendTextToUser {
    /// The piece of text to be sent to the user via text message
    pub text: String,
}

// anthropic_cookbook__web_search.json
/// A tool to retrieve up to date information on a given topic by searching the web
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "web_search")]
pub struct AnthropicCookbookWebSearch {
    /// The topic to search the web for
    pub topic: String,
}

// github__add_issue_comment.json
/// Add a comment and/or reaction to a specific issue or issue comment in a GitHub repository. Use this tool with pull requests as well (in this case pass pull request number as issue_number), but only if user is not asking specifically to add or react to review comments. At least one of body or reaction is required.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "add_issue_comment")]
pub struct GithubAddIssueComment {
    /// Comment content. Required unless reaction is provided.
    #[tool(length(min = 1))]
    pub body: Option<String>,
    /// The numeric ID of the issue or pull request comment to react to. Use this for reactions to comments; omit it to react to the issue or pull request itself. Cannot be combined with body.
    #[tool(range(min = 1))]
    pub comment_id: Option<i64>,
    /// Issue or pull request number to comment on or react to.
    pub issue_number: f64,
    /// Repository owner
    pub owner: String,
    /// Emoji reaction to add. Required unless body is provided.
    pub reaction: Option<GithubAddIssueCommentReaction>,
    /// Repository name
    pub repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubAddIssueCommentReaction {
    #[serde(rename = "+1")]
    PlusOne,
    #[serde(rename = "-1")]
    MinusOne,
    Laugh,
    Confused,
    Heart,
    Hooray,
    Rocket,
    Eyes,
}

// github__assign_copilot_to_issue_with_intent.json
/// Assign Copilot to a specific issue in a GitHub repository. Prefer this tool over assign_copilot_to_issue when available.
///
/// This tool can help with the following outcomes:
/// - a Pull Request created with source code changes to resolve the issue
///
///
/// More information can be found at:
/// - https://docs.github.com/en/copilot/concepts/agents/cloud-agent/about-cloud-agent
///
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "assign_copilot_to_issue_with_intent")]
pub struct GithubAssignCopilotToIssueWithIntent {
    /// Git reference (e.g., branch) that the agent will start its work from. If not specified, defaults to the repository's default branch. Ignored when is_suggestion is true
    pub base_ref: Option<String>,
    /// How confident you are in this choice. 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.
    pub confidence: GithubConfidence,
    /// Optional custom instructions to guide the agent beyond the issue body. Ignored when is_suggestion is true
    pub custom_instructions: Option<String>,
    /// If true, records a pending Copilot assignment intent rather than launching the agent. Approval later supplies the launch context; base_ref and custom_instructions are ignored in this case.
    pub is_suggestion: bool,
    /// Issue number
    pub issue_number: f64,
    /// Repository owner
    pub owner: String,
    /// One concise sentence explaining what specifically about the issue led to choosing Copilot. State the concrete signal (e.g. 'Well-scoped task with clear acceptance criteria').
    #[tool(length(max = 280))]
    pub rationale: String,
    /// Repository name
    pub repo: String,
}

// github__create_branch.json
/// Create a new branch in a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_branch")]
pub struct GithubCreateBranch {
    /// Name for new branch
    pub branch: String,
    /// Source branch (defaults to repo default)
    pub from_branch: Option<String>,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
}

// github__create_gist.json
/// Create a new gist
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_gist")]
pub struct GithubCreateGist {
    /// Content for simple single-file gist creation
    pub content: String,
    /// Description of the gist
    pub description: Option<String>,
    /// Filename for simple single-file gist creation
    pub filename: String,
    /// Whether the gist is public
    #[tool(default = false)]
    pub public: bool,
}

// github__create_issue.json
/// Create a new issue in a GitHub repository with a title and optional body.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_issue")]
pub struct GithubCreateIssue {
    /// Issue body content (optional)
    pub body: Option<String>,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Issue title
    pub title: String,
}

// github__create_or_update_file.json
/// Create or update a single file in a GitHub repository.
/// If updating, you should provide the SHA of the file you want to update. Use this tool to create or update a file in a GitHub repository remotely; do not use it for local file operations.
///
/// In order to obtain the SHA of original file version before updating, use the following git command:
/// git rev-parse <branch>:<path to file>
///
/// SHA MUST be provided for existing file updates.
///
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_or_update_file")]
pub struct GithubCreateOrUpdateFile {
    /// Set true to update a symbolic link itself; content must be its new target path.
    #[tool(default = false)]
    pub allow_symlink_write: bool,
    /// Branch to create/update the file in
    pub branch: String,
    /// Content of the file, exactly as it should appear once written. Do not base64-encode it; this server does that before calling the REST API.
    pub content: String,
    /// Commit message
    pub message: String,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Path where to create/update the file
    pub path: String,
    /// Repository name
    pub repo: String,
    /// The blob SHA of the file being replaced. Required if the file already exists.
    pub sha: Option<String>,
}

// github__create_pull_request.json
/// Create a new pull request in a GitHub repository.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_pull_request")]
pub struct GithubCreatePullRequest {
    /// Branch to merge into
    pub base: String,
    /// PR description
    pub body: Option<String>,
    /// Create as draft PR
    pub draft: Option<bool>,
    /// Branch containing changes
    pub head: String,
    /// Allow maintainer edits
    pub maintainer_can_modify: Option<bool>,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// GitHub usernames or ORG/team-slug team reviewers to request reviews from
    pub reviewers: Option<Vec<String>>,
    /// PR title
    pub title: String,
}

// github__create_repository.json
/// Create a new GitHub repository in your account or specified organization
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "create_repository")]
#[serde(rename_all = "camelCase")]
pub struct GithubCreateRepository {
    /// Initialize with README
    pub auto_init: Option<bool>,
    /// Repository description
    pub description: Option<String>,
    /// Repository name
    pub name: String,
    /// Organization to create the repository in (omit to create in your personal account)
    pub organization: Option<String>,
    /// Whether the repository should be private. Defaults to true (private) when omitted.
    #[tool(default = true)]
    pub private: bool,
}

// github__delete_file.json
/// Delete a file from a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "delete_file")]
pub struct GithubDeleteFile {
    /// Branch to delete the file from
    pub branch: String,
    /// Commit message
    pub message: String,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Path to the file to delete
    pub path: String,
    /// Repository name
    pub repo: String,
}

// github__dismiss_notification.json
/// Dismiss a notification by marking it as read or done
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "dismiss_notification")]
pub struct GithubDismissNotification {
    /// The new state of the notification (read/done)
    pub state: GithubDismissNotificationState,
    /// The ID of the notification thread
    #[serde(rename = "threadID")]
    pub thread_id: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubDismissNotificationState {
    Read,
    Done,
}

// github__fork_repository.json
/// Fork a GitHub repository to your account or specified organization
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "fork_repository")]
pub struct GithubForkRepository {
    /// Organization to fork to
    pub organization: Option<String>,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
}

// github__get_commit.json
/// Get details for a commit from a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_commit")]
#[serde(rename_all = "camelCase")]
pub struct GithubGetCommit {
    /// Level of detail to include for changed files. "none" omits stats and files entirely. "stats" (default) includes per-file metadata: filename, status, and lines-of-code counts (additions, deletions, changes), with no patch content. "full_patch" additionally includes the unified diff content for each file and can be very large.
    #[tool(default = "stats")]
    pub detail: GithubGetCommitDetail,
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
    /// Commit SHA, branch name, or tag name
    pub sha: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubGetCommitDetail {
    None,
    Stats,
    FullPatch,
}

// github__get_file_contents.json
/// Get the contents of a file or directory from a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_file_contents")]
pub struct GithubGetFileContents {
    /// Subset of fields to return for each entry when the path is a directory. If omitted, all fields are returned. Ignored when the path is a single file. Use this to reduce response size when listing directories and you only need specific fields, e.g. just 'name' and 'type'.
    pub fields: Option<Vec<GithubGetFileContentsFields>>,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Path to file/directory
    #[tool(default = "/")]
    pub path: String,
    /// Accepts optional git refs such as `refs/tags/{tag}`, `refs/heads/{branch}` or `refs/pull/{pr_number}/head`
    pub r#ref: Option<String>,
    /// Repository name
    pub repo: String,
    /// Accepts optional commit SHA. If specified, it will be used instead of ref
    pub sha: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubGetFileContentsFields {
    Type,
    Name,
    Path,
    Size,
    Sha,
    Url,
    GitUrl,
    HtmlUrl,
    DownloadUrl,
}

// github__get_job_logs.json
/// Download logs for a specific workflow job or efficiently get all failed job logs for a workflow run
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_job_logs")]
pub struct GithubGetJobLogs {
    /// When true, gets logs for all failed jobs in run_id
    pub failed_only: Option<bool>,
    /// The unique identifier of the workflow job (required for single job logs)
    pub job_id: Option<f64>,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Returns actual log content instead of URLs
    pub return_content: Option<bool>,
    /// Workflow run ID (required when using failed_only)
    pub run_id: Option<f64>,
    /// Number of lines to return from the end of the log
    #[tool(default = 500)]
    pub tail_lines: f64,
}

// github__get_label.json
/// Get a specific label from a repository.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_label")]
pub struct GithubGetLabel {
    /// Label name.
    pub name: String,
    /// Repository owner (username or organization name)
    pub owner: String,
    /// Repository name
    pub repo: String,
}

// github__get_me.json
/// Get details of the authenticated GitHub user. Use this when a request is about the user's own profile for GitHub. Or when information is missing to build other tool calls.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_me")]
pub struct GithubGetMe {}

// github__get_release_by_tag.json
/// Get a specific release by its tag name in a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_release_by_tag")]
pub struct GithubGetReleaseByTag {
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// Tag name (e.g., 'v1.0.0')
    pub tag: String,
}

// github__get_repository_tree.json
/// Get the tree structure (files and directories) of a GitHub repository at a specific ref or SHA
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_repository_tree")]
pub struct GithubGetRepositoryTree {
    /// Repository owner (username or organization)
    pub owner: String,
    /// Optional path prefix to filter the tree results (e.g., 'src/' to only show files in the src directory)
    pub path_filter: Option<String>,
    /// Setting this parameter to true returns the objects or subtrees referenced by the tree. Default is false
    #[tool(default = false)]
    pub recursive: bool,
    /// Repository name
    pub repo: String,
    /// The SHA1 value or ref (branch or tag) name of the tree. Defaults to the repository's default branch
    pub tree_sha: Option<String>,
}

// github__list_branches.json
/// List branches in a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_branches")]
#[serde(rename_all = "camelCase")]
pub struct GithubListBranches {
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
}

// github__list_commits.json
/// Get list of commits of a branch in a GitHub repository. Returns at least 30 results per page by default, but can return more if specified using the perPage parameter (up to 100).
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_commits")]
#[serde(rename_all = "camelCase")]
pub struct GithubListCommits {
    /// Author username or email address to filter commits by
    pub author: Option<String>,
    /// Subset of fields to return for each commit. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields, e.g. just 'sha' and 'html_url'.
    pub fields: Option<Vec<GithubListCommitsFields>>,
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Only commits containing this file path will be returned
    pub path: Option<String>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
    /// Commit SHA, branch or tag name to list commits of. If not provided, uses the default branch of the repository. If a commit SHA is provided, will list commits up to that SHA.
    pub sha: Option<String>,
    /// Only commits after this date will be returned (ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ or YYYY-MM-DD)
    pub since: Option<String>,
    /// Only commits before this date will be returned (ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ or YYYY-MM-DD)
    pub until: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubListCommitsFields {
    Sha,
    HtmlUrl,
    Commit,
    Author,
    Committer,
}

// github__list_global_security_advisories.json
/// List global security advisories from GitHub.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_global_security_advisories")]
#[serde(rename_all = "camelCase")]
pub struct GithubListGlobalSecurityAdvisories {
    /// Filter advisories by affected package or version (e.g. "package1,package2@1.0.0").
    pub affects: Option<String>,
    /// Filter by CVE ID.
    pub cve_id: Option<String>,
    /// Filter by Common Weakness Enumeration IDs (e.g. ["79", "284", "22"]).
    pub cwes: Option<Vec<String>>,
    /// Filter by package ecosystem.
    pub ecosystem: Option<GithubListGlobalSecurityAdvisoriesEcosystem>,
    /// Filter by GitHub Security Advisory ID (format: GHSA-xxxx-xxxx-xxxx).
    pub ghsa_id: Option<String>,
    /// Whether to only return withdrawn advisories.
    pub is_withdrawn: Option<bool>,
    /// Filter by publish or update date or date range (ISO 8601 date or range).
    pub modified: Option<String>,
    /// Filter by publish date or date range (ISO 8601 date or range).
    pub published: Option<String>,
    /// Filter by severity.
    pub severity: Option<GithubListGlobalSecurityAdvisoriesSeverity>,
    /// Advisory type.
    #[tool(default = "reviewed")]
    pub r#type: GithubListGlobalSecurityAdvisoriesType,
    /// Filter by update date or date range (ISO 8601 date or range).
    pub updated: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubListGlobalSecurityAdvisoriesEcosystem {
    Actions,
    Composer,
    Erlang,
    Go,
    Maven,
    Npm,
    Nuget,
    Other,
    Pip,
    Pub,
    Rubygems,
    Rust,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubListGlobalSecurityAdvisoriesSeverity {
    Unknown,
    Low,
    Medium,
    High,
    Critical,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubListGlobalSecurityAdvisoriesType {
    Reviewed,
    Malware,
    Unreviewed,
}

// github__list_issues.json
/// List issues in a GitHub repository. For pagination, use the 'endCursor' from the previous response's 'pageInfo' in the 'after' parameter.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_issues")]
pub struct GithubListIssues {
    /// Cursor for pagination. Use the cursor from the previous response.
    pub after: Option<String>,
    /// Order direction. If provided, the 'orderBy' also needs to be provided.
    pub direction: Option<GithubListIssuesDirection>,
    /// Filter by custom issue field values. Each entry takes a field_name and a value; the server looks up the field and coerces the value to its type (single-select option name, text, number, or YYYY-MM-DD date).
    pub field_filters: Option<Vec<GithubIssueFieldFilter>>,
    /// Subset of fields to return for each issue. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' and 'field_values' in particular drops the largest per-result data.
    pub fields: Option<Vec<GithubListIssuesFields>>,
    /// Filter by labels
    pub labels: Option<Vec<String>>,
    /// Order issues by field. If provided, the 'direction' also needs to be provided.
    #[serde(rename = "orderBy")]
    pub order_by: Option<GithubListIssuesOrderBy>,
    /// Repository owner
    pub owner: String,
    /// Results per page for pagination (min 1, max 100)
    #[serde(rename = "perPage")]
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
    /// Filter by date (ISO 8601 timestamp)
    pub since: Option<String>,
    /// Filter by state, by default both open and closed issues are returned when not provided
    pub state: Option<GithubListIssuesState>,
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct GithubIssueFieldFilter {
    /// Name of the custom field (e.g. "Priority"). Case-insensitive.
    pub field_name: String,
    /// Value to filter on. For single-select fields, the option name (e.g. "P1"). For dates, YYYY-MM-DD. For numbers, the numeric value as a string. For text, the text value.
    pub value: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GithubListIssuesDirection {
    Asc,
    Desc,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubListIssuesFields {
    Number,
    Title,
    Body,
    State,
    User,
    Labels,
    Assignees,
    Comments,
    CreatedAt,
    UpdatedAt,
    FieldValues,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GithubListIssuesOrderBy {
    CreatedAt,
    UpdatedAt,
    Comments,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GithubListIssuesState {
    Open,
    Closed,
}

// github__list_notifications.json
/// Lists all GitHub notifications for the authenticated user, including unread notifications, mentions, review requests, assignments, and updates on issues or pull requests. Use this tool whenever the user asks what to work on next, requests a summary of their GitHub activity, wants to see pending reviews, or needs to check for new updates or tasks. This tool is the primary way to discover actionable items, reminders, and outstanding work on GitHub. Always call this tool when asked what to work on next, what is pending, or what needs attention in GitHub.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_notifications")]
#[serde(rename_all = "camelCase")]
pub struct GithubListNotifications {
    /// Only show notifications updated before the given time (ISO 8601 format)
    pub before: Option<String>,
    /// Filter notifications to, use default unless specified. Read notifications are ones that have already been acknowledged by the user. Participating notifications are those that the user is directly involved in, such as issues or pull requests they have commented on or created.
    pub filter: Option<GithubListNotificationsFilter>,
    /// Optional repository owner. If provided with repo, only notifications for this repository are listed.
    pub owner: Option<String>,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Optional repository name. If provided with owner, only notifications for this repository are listed.
    pub repo: Option<String>,
    /// Only show notifications updated after the given time (ISO 8601 format)
    pub since: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubListNotificationsFilter {
    Default,
    IncludeReadNotifications,
    OnlyParticipating,
}

// github__list_pull_requests.json
/// List pull requests in a GitHub repository. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_pull_requests")]
#[serde(rename_all = "camelCase")]
pub struct GithubListPullRequests {
    /// Filter by base branch
    pub base: Option<String>,
    /// Sort direction
    pub direction: Option<GithubListPullRequestsDirection>,
    /// Subset of fields to return for each pull request. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' in particular drops the largest per-result data.
    pub fields: Option<Vec<GithubListPullRequestsFields>>,
    /// Filter by head user/org and branch
    pub head: Option<String>,
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
    /// Sort by
    pub sort: Option<GithubListPullRequestsSort>,
    /// Filter by state
    pub state: Option<GithubListPullRequestsState>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubListPullRequestsDirection {
    Asc,
    Desc,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubListPullRequestsFields {
    Number,
    Title,
    Body,
    State,
    Draft,
    Merged,
    MergeableState,
    HtmlUrl,
    User,
    Labels,
    Assignees,
    RequestedReviewers,
    MergedBy,
    Head,
    Base,
    Additions,
    Deletions,
    ChangedFiles,
    Commits,
    Comments,
    CreatedAt,
    UpdatedAt,
    ClosedAt,
    MergedAt,
    Milestone,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum GithubListPullRequestsSort {
    Created,
    Updated,
    Popularity,
    LongRunning,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubListPullRequestsState {
    Open,
    Closed,
    All,
}

// github__list_releases.json
/// List releases in a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_releases")]
#[serde(rename_all = "camelCase")]
pub struct GithubListReleases {
    /// Subset of fields to return for each release. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' in particular drops the largest per-release data.
    pub fields: Option<Vec<GithubListReleasesFields>>,
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubListReleasesFields {
    Id,
    TagName,
    Name,
    Body,
    HtmlUrl,
    PublishedAt,
    Prerelease,
    Draft,
    Author,
}

// github__list_tags.json
/// List git tags in a GitHub repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "list_tags")]
#[serde(rename_all = "camelCase")]
pub struct GithubListTags {
    /// Repository owner
    pub owner: String,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository name
    pub repo: String,
}

// github__mark_all_notifications_read.json
/// Mark all notifications as read
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "mark_all_notifications_read")]
#[serde(rename_all = "camelCase")]
pub struct GithubMarkAllNotificationsRead {
    /// Describes the last point that notifications were checked (optional). Default: Now
    pub last_read_at: Option<String>,
    /// Optional repository owner. If provided with repo, only notifications for this repository are marked as read.
    pub owner: Option<String>,
    /// Optional repository name. If provided with owner, only notifications for this repository are marked as read.
    pub repo: Option<String>,
}

// github__merge_pull_request.json
/// Merge a pull request in a GitHub repository.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "merge_pull_request")]
pub struct GithubMergePullRequest {
    /// Extra detail for merge commit
    pub commit_message: Option<String>,
    /// Title for merge commit
    pub commit_title: Option<String>,
    /// Merge method
    pub merge_method: Option<GithubMergePullRequestMergeMethod>,
    /// Repository owner
    pub owner: String,
    /// Pull request number
    #[serde(rename = "pullNumber")]
    pub pull_number: f64,
    /// Repository name
    pub repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubMergePullRequestMergeMethod {
    Merge,
    Squash,
    Rebase,
}

// github__push_files.json
/// Push multiple files to a GitHub repository in a single commit
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "push_files")]
pub struct GithubPushFiles {
    /// Branch to push to
    pub branch: String,
    /// Array of file objects to push, each object with path (string) and content (string)
    pub files: Vec<GithubFileToPush>,
    /// Commit message
    pub message: String,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubFileToPush {
    /// file content
    pub content: String,
    /// path to the file
    pub path: String,
}

// github__search_code.json
/// Fast and precise code search across ALL GitHub repositories using GitHub's native search engine. Best for finding exact symbols, functions, classes, or specific code patterns.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "search_code")]
#[serde(rename_all = "camelCase")]
pub struct GithubSearchCode {
    /// Subset of fields to return for each code search result. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'repository' and 'text_matches' in particular drops the largest per-result data.
    pub fields: Option<Vec<GithubSearchCodeFields>>,
    /// Sort order for results
    pub order: Option<GithubSearchCodeOrder>,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Search query (GitHub code search REST). Implicit AND between terms; supports `OR`, `NOT`, and `"quoted phrase"` for exact match. Qualifiers: `repo:owner/repo`, `org:`, `user:`, `language:`, `path:dir` (prefix match), `filename:exact.ext`, `extension:`, `in:file`, `in:path`, `size:`, `is:archived`, `is:fork`. Max 256 chars. Examples: `WithContext language:go org:github`; `"package main" repo:o/r`; `func extension:go path:cmd repo:o/r`; `NOT TODO language:go repo:o/r`.
    pub query: String,
    /// Sort field ('indexed' only)
    pub sort: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubSearchCodeFields {
    Name,
    Path,
    Sha,
    Repository,
    TextMatches,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubSearchCodeOrder {
    Asc,
    Desc,
}

// github__search_repositories.json
/// Find GitHub repositories by name, description, readme, topics, or other metadata. Perfect for discovering projects, finding examples, or locating specific repositories across GitHub.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "search_repositories")]
pub struct GithubSearchRepositories {
    /// Return minimal repository information (default: true). When false, returns full GitHub API repository objects.
    #[tool(default = true)]
    pub minimal_output: bool,
    /// Sort order
    pub order: Option<GithubSearchRepositoriesOrder>,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[serde(rename = "perPage")]
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// Repository search query. Examples: 'machine learning in:name stars:>1000 language:python', 'topic:react', 'user:facebook'. Supports advanced search syntax for precise filtering.
    pub query: String,
    /// Sort repositories by field, defaults to best match
    pub sort: Option<GithubSearchRepositoriesSort>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubSearchRepositoriesOrder {
    Asc,
    Desc,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum GithubSearchRepositoriesSort {
    Stars,
    Forks,
    HelpWantedIssues,
    Updated,
}

// github__search_users.json
/// Find GitHub users by username, real name, or other profile information. Useful for locating developers, contributors, or team members.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "search_users")]
#[serde(rename_all = "camelCase")]
pub struct GithubSearchUsers {
    /// Sort order
    pub order: Option<GithubSearchUsersOrder>,
    /// Page number for pagination (min 1)
    #[tool(range(min = 1))]
    pub page: Option<f64>,
    /// Results per page for pagination (min 1, max 100)
    #[tool(range(min = 1, max = 100))]
    pub per_page: Option<f64>,
    /// User search query. Examples: 'john smith', 'location:seattle', 'followers:>100'. Search is automatically scoped to type:user.
    pub query: String,
    /// Sort users by number of followers or repositories, or when the person joined GitHub.
    pub sort: Option<GithubSearchUsersSort>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubSearchUsersOrder {
    Asc,
    Desc,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubSearchUsersSort {
    Followers,
    Repositories,
    Joined,
}

// github__update_pull_request.json
/// Update an existing pull request in a GitHub repository.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "update_pull_request")]
pub struct GithubUpdatePullRequest {
    /// New base branch name
    pub base: Option<String>,
    /// New description
    pub body: Option<String>,
    /// Mark pull request as draft (true) or ready for review (false)
    pub draft: Option<bool>,
    /// Allow maintainer edits
    pub maintainer_can_modify: Option<bool>,
    /// Repository owner
    pub owner: String,
    /// Pull request number to update
    #[serde(rename = "pullNumber")]
    pub pull_number: f64,
    /// Repository name
    pub repo: String,
    /// GitHub usernames or ORG/team-slug team reviewers to request reviews from
    pub reviewers: Option<Vec<String>>,
    /// New state
    pub state: Option<GithubUpdatePullRequestState>,
    /// New title
    pub title: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubUpdatePullRequestState {
    Open,
    Closed,
}

// mcp_time__convert_time.json
/// Convert time between timezones
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "convert_time")]
pub struct McpTimeConvertTime {
    /// Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no source timezone provided by the user.
    pub source_timezone: String,
    /// Time to convert in 24-hour format (HH:MM)
    pub time: String,
    /// Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco'). Use 'UTC' as local timezone if no target timezone provided by the user.
    pub target_timezone: String,
}

// mcp_time__get_current_time.json
/// Get current time in a specific timezone
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_current_time")]
pub struct McpTimeGetCurrentTime {
    /// IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no timezone provided by the user.
    pub timezone: String,
}

// github__issue_write.json
/// Create a new or update an existing issue in a GitHub repository.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "issue_write")]
pub struct GithubIssueWrite {
    /// Usernames to assign to this issue
    pub assignees: Option<Vec<String>>,
    /// Issue body content
    pub body: Option<String>,
    /// Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.
    pub duplicate_of: Option<f64>,
    /// Issue field values to set or clear. Each item requires 'field_name' and exactly one of
    /// 'value', 'field_option_name', or 'delete: true'.
    pub issue_fields: Option<Vec<GithubIssueFieldValue>>,
    /// Issue number to update
    pub issue_number: Option<f64>,
    /// Labels to apply to this issue
    pub labels: Option<Vec<String>>,
    /// Write operation to perform on a single issue.
    /// Options are:
    /// - 'create' - creates a new issue.
    /// - 'update' - updates an existing issue.
    pub method: GithubIssueWriteMethod,
    /// Milestone number
    pub milestone: Option<f64>,
    /// Repository owner
    pub owner: String,
    /// Repository name
    pub repo: String,
    /// New state
    pub state: Option<GithubIssueState>,
    /// Reason for the state change. Ignored unless state is changed.
    pub state_reason: Option<GithubIssueStateReason>,
    /// Issue title
    pub title: Option<String>,
    /// Type of this issue. For updates, pass null to remove the current type. Only use if issue
    /// types are enabled for this repository. Use list_issue_types to get valid type values for
    /// this repository or its owner organization. If the repository doesn't support issue types,
    /// omit this parameter.
    // Left out: kept; `null`: removed.
    #[serde(default)]
    #[tool(length(min = 1))]
    pub r#type: Patch<String>,
}

/// One issue field to set or clear.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[tool(skip_doc)]
pub struct GithubIssueFieldValue {
    /// Set to true to clear this field's current value on the issue. When false or omitted, this
    /// property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.
    pub delete: Option<bool>,
    /// Issue field name (case-insensitive). Must match a field returned by list_issue_fields for
    /// this repository or its organization.
    pub field_name: String,
    /// Option name for single-select fields. Validated against the field's options before the
    /// API call. Cannot be combined with 'value' or 'delete: true'.
    pub field_option_name: Option<String>,
    /// Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For
    /// single-select fields, prefer 'field_option_name' so the option is validated before the
    /// API call. Cannot be combined with 'field_option_name' or 'delete: true'.
    pub value: Option<GithubScalar>,
}

/// A text, number or boolean value.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
#[tool(skip_doc)]
pub enum GithubScalar {
    Text(String),
    Number(f64),
    Flag(bool),
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubIssueWriteMethod {
    Create,
    Update,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubIssueState {
    Open,
    Closed,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubIssueStateReason {
    Completed,
    NotPlanned,
    Duplicate,
}

/// How confident the model is in a choice.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "UPPERCASE")]
#[tool(skip_doc)]
pub enum GithubConfidence {
    Low,
    Medium,
    High,
}

// github__update_issue_assignees.json
/// Update the assignees of an existing issue. This replaces the current assignees with the
/// provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH)
/// reflecting how certain you are about the choice.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "update_issue_assignees")]
pub struct GithubUpdateIssueAssignees {
    /// GitHub usernames to assign to this issue.
    pub assignees: Vec<GithubAssignee>,
    /// The issue number to update
    #[tool(range(min = 1))]
    pub issue_number: f64,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
}

/// An assignee: a username, or a username with the reason it was chosen.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
#[tool(one_of, skip_doc)]
pub enum GithubAssignee {
    /// GitHub username
    Login(String),
    Chosen(GithubChosenAssignee),
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct GithubChosenAssignee {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user
    /// request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with
    /// limited signal.
    pub confidence: Option<GithubConfidence>,
    /// If true, this assignee is sent to the API as a suggestion (suggest:true) rather than an
    /// applied assignee. Whether the assignee is applied or recorded as a proposal is determined
    /// by the API.
    pub is_suggestion: Option<bool>,
    /// GitHub username
    pub login: String,
    /// One concise sentence explaining what specifically about the issue led you to choose this
    /// assignee. State the concrete signal (e.g. 'Authored the file the crash originates in').
    #[tool(length(max = 280))]
    pub rationale: Option<String>,
}

// github__update_issue_labels.json
/// Update the labels of an existing issue. This replaces the current labels with the provided
/// list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how
/// certain you are about the choice.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "update_issue_labels")]
pub struct GithubUpdateIssueLabels {
    /// The issue number to update
    #[tool(range(min = 1))]
    pub issue_number: f64,
    /// Labels to apply to this issue.
    pub labels: Vec<GithubLabel>,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
}

/// A label: its name, or its name with the reason it was chosen.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
#[tool(one_of, skip_doc)]
pub enum GithubLabel {
    /// Label name
    Name(String),
    Chosen(GithubChosenLabel),
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct GithubChosenLabel {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user
    /// request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with
    /// limited signal.
    pub confidence: Option<GithubConfidence>,
    /// If true, this label is sent to the API as a suggestion (suggest:true) rather than an
    /// applied label. Whether the label is applied or recorded as a proposal is determined by the
    /// API.
    pub is_suggestion: Option<bool>,
    /// Label name
    pub name: String,
    /// One concise sentence explaining what specifically about the issue led you to choose this
    /// label. State the concrete signal (e.g. 'Reports a crash when saving' → bug).
    #[tool(length(max = 280))]
    pub rationale: Option<String>,
}

// mcp_git__*.json: the MCP reference server `git`, its pydantic models.

/// Shows the working tree status
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_status")]
pub struct McpGitGitStatus {
    pub repo_path: String,
}

/// Shows changes in the working directory that are not yet staged
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_diff_unstaged")]
pub struct McpGitGitDiffUnstaged {
    pub repo_path: String,
    #[tool(default = 3)]
    pub context_lines: i64,
}

/// Shows changes that are staged for commit
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_diff_staged")]
pub struct McpGitGitDiffStaged {
    pub repo_path: String,
    #[tool(default = 3)]
    pub context_lines: i64,
}

/// Shows differences between branches or commits
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_diff")]
pub struct McpGitGitDiff {
    pub repo_path: String,
    pub target: String,
    #[tool(default = 3)]
    pub context_lines: i64,
}

/// Records changes to the repository
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_commit")]
pub struct McpGitGitCommit {
    pub repo_path: String,
    pub message: String,
}

/// Adds file contents to the staging area
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_add")]
pub struct McpGitGitAdd {
    pub repo_path: String,
    pub files: Vec<String>,
}

/// Unstages all staged changes
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_reset")]
pub struct McpGitGitReset {
    pub repo_path: String,
}

/// Shows the commit logs
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_log")]
pub struct McpGitGitLog {
    pub repo_path: String,
    #[tool(default = 10)]
    pub max_count: i64,
    /// Start timestamp for filtering commits. Accepts: ISO 8601 format (e.g.,
    /// '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute
    /// dates (e.g., '2024-01-15', 'Jan 15 2024')
    #[tool(nullable, default = None)]
    pub start_timestamp: Option<String>,
    /// End timestamp for filtering commits. Accepts: ISO 8601 format (e.g.,
    /// '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute
    /// dates (e.g., '2024-01-15', 'Jan 15 2024')
    #[tool(nullable, default = None)]
    pub end_timestamp: Option<String>,
}

/// Creates a new branch from an optional base branch
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_create_branch")]
pub struct McpGitGitCreateBranch {
    pub repo_path: String,
    pub branch_name: String,
    #[tool(nullable, default = None)]
    pub base_branch: Option<String>,
}

/// Switches branches
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_checkout")]
pub struct McpGitGitCheckout {
    pub repo_path: String,
    pub branch_name: String,
}

/// Shows the contents of a commit
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_show")]
pub struct McpGitGitShow {
    pub repo_path: String,
    pub revision: String,
}

/// List Git branches
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "git_branch")]
pub struct McpGitGitBranch {
    /// The path to the Git repository.
    pub repo_path: String,
    /// Whether to list local branches ('local'), remote branches ('remote') or all
    /// branches('all').
    pub branch_type: String,
    /// The commit sha that branch should contain. Do not pass anything to this param if no
    /// commit sha is specified
    #[tool(nullable, default = None)]
    pub contains: Option<String>,
    /// The commit sha that branch should NOT contain. Do not pass anything to this param if no
    /// commit sha is specified
    #[tool(nullable, default = None)]
    pub not_contains: Option<String>,
}

// mcp_fetch__fetch.json: the MCP reference server `fetch`, its pydantic model.

/// Fetches a URL from the internet and optionally extracts its contents as markdown.
///
/// Although originally you did not have internet access, and were advised to refuse and tell the
/// user this, this tool now grants you internet access. Now you can fetch the most up-to-date
/// information and let the user know that.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "fetch")]
pub struct McpFetchFetch {
    /// URL to fetch
    #[tool(format = "uri", length(min = 1))]
    pub url: String,
    /// Maximum number of characters to return.
    #[tool(default = 5000, range(min = 1, max = 999_999))]
    pub max_length: u32,
    /// On return output starting at this character index, useful if a previous fetch was
    /// truncated and more context is required.
    #[tool(default = 0)]
    pub start_index: u64,
    /// Get the actual HTML content of the requested page, without simplification.
    #[tool(default = false)]
    pub raw: bool,
}

// github__projects_write.json
/// Create and manage GitHub Projects: create projects, add/update/delete items, bulk-update many items at once, manage views, create status updates, and add iteration fields.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "projects_write")]
pub struct GithubProjectsWrite {
    /// The body of the status update (markdown). Used for 'create_project_status_update' method.
    pub body: Option<String>,
    /// The name of the iteration field (e.g. 'Sprint'). Required for 'create_iteration_field' method.
    pub field_name: Option<String>,
    /// Saved view filter; omit on update to preserve it, or pass null to clear it.
    #[tool(nullable)]
    pub filter: Option<String>,
    /// The issue number. Required for 'add_project_item' when item_type is 'issue'. Also accepted by 'update_project_item' to resolve the item by issue number (combine with item_owner and item_repo).
    pub issue_number: Option<f64>,
    /// The project item ID. Required for 'delete_project_item'. For 'update_project_item', provide either item_id, or (item_owner + item_repo + issue_number) to resolve the item by issue.
    pub item_id: Option<f64>,
    /// The owner (user or organization) of the repository containing the issue or pull request. Required for 'add_project_item' method. Also accepted by 'update_project_item' when resolving the item by issue number.
    pub item_owner: Option<String>,
    /// The name of the repository containing the issue or pull request. Required for 'add_project_item' method. Also accepted by 'update_project_item' when resolving the item by issue number.
    pub item_repo: Option<String>,
    /// The item's type, either issue or pull_request. Required for 'add_project_item' method.
    pub item_type: Option<GithubProjectsWriteItemType>,
    /// The items to update with the top-level 'updated_field'. Required for 'update_project_items'; prefer it over calling 'update_project_item' in a loop. Each entry must match exactly one reference variant: 'node_id', numeric 'item_id', or 'item_owner' + 'item_repo' + 'issue_number'. Limit: 50 items per call.
    pub items: Option<Vec<GithubProjectItemRef>>,
    /// Duration in days for iterations of the field (e.g. 7 for weekly, 14 for bi-weekly). Required for 'create_iteration_field' method.
    pub iteration_duration: Option<f64>,
    /// Custom iterations for 'create_iteration_field' method. Only set this when you need iterations with varying durations, breaks between them, or specific titles. Otherwise omit it: GitHub auto-creates three iterations of 'iteration_duration' days starting on 'start_date', which is the right choice for most cases.
    pub iterations: Option<Vec<GithubIteration>>,
    /// View layout; required when creating a view.
    pub layout: Option<GithubProjectsWriteLayout>,
    /// The method to execute
    pub method: GithubProjectsWriteMethod,
    /// View name; required when creating a view.
    pub name: Option<String>,
    /// The project owner (user or organization login). The name is not case sensitive.
    pub owner: String,
    /// Owner type (user or org). Required for 'create_project' method. If not provided for other methods, will be automatically detected.
    pub owner_type: Option<GithubProjectsWriteOwnerType>,
    /// The project's number. Required for all methods except 'create_project'.
    pub project_number: Option<f64>,
    /// The pull request number (use when item_type is 'pull_request' for 'add_project_item' method). Provide either issue_number or pull_request_number.
    pub pull_request_number: Option<f64>,
    /// Start date in YYYY-MM-DD format. Used for 'create_project_status_update' and 'create_iteration_field' methods.
    pub start_date: Option<String>,
    /// The status of the project. Used for 'create_project_status_update' method.
    pub status: Option<GithubProjectsWriteStatus>,
    /// The target date of the status update in YYYY-MM-DD format. Used for 'create_project_status_update' method.
    pub target_date: Option<String>,
    /// The project title. Required for 'create_project' method.
    pub title: Option<String>,
    /// The field/value to apply, using {"id": 123, "value": ...} or {"name": "Status", "value": ...}; null clears the field. Required for 'update_project_item' and 'update_project_items', where one top-level field/value applies to every item in a batch. For 'update_project_item' SINGLE_SELECT fields, the name form accepts option names; the ID form expects an option ID.
    pub updated_field: Option<GithubUpdatedField>,
    /// Project view node ID for update or delete; must belong to owner/project_number.
    pub view_id: Option<String>,
    /// Ordered project field names to show on create or replace on update; omit on update to preserve, or pass [] to reset. Mutually exclusive with visible_fields. Roadmap accepts only [].
    pub visible_field_names: Option<Vec<String>>,
    /// Ordered project field database IDs to show on create or replace on update; omit on update to preserve, or pass [] to reset. Mutually exclusive with visible_field_names. Roadmap accepts only [].
    pub visible_fields: Option<Vec<String>>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubUpdatedFieldByName {
    /// The project field name. Matching is case-insensitive.
    pub name: String,
    /// The value to apply. Any JSON value is accepted; use null to clear the field.
    pub value: Value,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubUpdatedFieldById {
    /// The numeric project field ID.
    pub id: i64,
    /// The value to apply. Any JSON value is accepted; use null to clear the field.
    pub value: Value,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubIteration {
    /// Duration in days
    pub duration: f64,
    /// Start date in YYYY-MM-DD format
    pub start_date: String,
    /// Iteration title (e.g. 'Sprint 1')
    pub title: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubProjectItemByIssue {
    /// Issue number used to resolve the project item.
    pub issue_number: i64,
    /// Owner of the repository containing the issue.
    pub item_owner: String,
    /// Repository containing the issue.
    pub item_repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubProjectItemById {
    /// The numeric project item ID.
    pub item_id: i64,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GithubProjectItemByNodeId {
    /// The project item's GraphQL node ID, as returned by 'list_project_items' or 'add_project_item'.
    pub node_id: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubProjectsWriteItemType {
    Issue,
    PullRequest,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
#[tool(one_of)]
pub enum GithubProjectItemRef {
    NodeId(GithubProjectItemByNodeId),
    ItemId(GithubProjectItemById),
    Issue(GithubProjectItemByIssue),
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubProjectsWriteLayout {
    Table,
    Board,
    Roadmap,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum GithubProjectsWriteMethod {
    AddProjectItem,
    UpdateProjectItem,
    UpdateProjectItems,
    DeleteProjectItem,
    CreateProjectStatusUpdate,
    CreateProjectView,
    UpdateProjectView,
    DeleteProjectView,
    CreateProject,
    CreateIterationField,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum GithubProjectsWriteOwnerType {
    User,
    Org,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum GithubProjectsWriteStatus {
    Inactive,
    OnTrack,
    AtRisk,
    OffTrack,
    Complete,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(untagged)]
#[tool(one_of)]
pub enum GithubUpdatedField {
    Id(GithubUpdatedFieldById),
    Name(GithubUpdatedFieldByName),
}

// github__set_issue_fields.json
/// Set issue field values for an issue. Fields are organization-level custom fields (text, number, date, or single select). Use this to create or update field values on an issue.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "set_issue_fields")]
pub struct GithubSetIssueFields {
    /// Array of issue field values to set. Each element must have a 'field_id' (string, the GraphQL node ID of the field) and exactly one value field: 'text_value' for text fields, 'number_value' for number fields, 'date_value' (ISO 8601 date string) for date fields, or 'single_select_option_id' (the GraphQL node ID of the option) for single select fields. Set 'delete' to true to remove a field value.
    #[tool(length(min = 1))]
    pub fields: Vec<GithubIssueFieldSetting>,
    /// The issue number to update
    #[tool(range(min = 1))]
    pub issue_number: f64,
    /// Repository owner (username or organization)
    pub owner: String,
    /// Repository name
    pub repo: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
pub struct GithubIssueFieldSetting {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.
    pub confidence: Option<GithubConfidence>,
    /// The value to set for a date field (ISO 8601 date string)
    pub date_value: Option<String>,
    /// Set to true to delete this field value
    pub delete: Option<bool>,
    /// The GraphQL node ID of the issue field
    pub field_id: String,
    /// If true, this field value is sent to the API as a suggestion (suggest:true) rather than an applied value. Whether the value is applied or recorded as a proposal is determined by the API.
    pub is_suggestion: Option<bool>,
    /// The value to set for a number field
    pub number_value: Option<f64>,
    /// One concise sentence explaining what specifically about the issue led you to choose this field value. State the concrete signal (e.g. 'Reports a crash when saving' → high priority).
    #[tool(length(max = 280))]
    pub rationale: Option<String>,
    /// The GraphQL node ID of the option to set for a single select field
    pub single_select_option_id: Option<String>,
    /// The value to set for a text field
    pub text_value: Option<String>,
}

// github__update_issue_type.json
/// Set or remove the type of an existing issue. Pass null to remove the current type. When setting a value, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "update_issue_type")]
pub struct GithubUpdateIssueType {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.
    pub confidence: Option<GithubConfidence>,
    /// If true, this issue type change is sent to the API as a suggestion (suggest:true) rather than an applied value. Whether the type is applied or recorded as a proposal is determined by the API.
    pub is_suggestion: Option<bool>,
    /// The issue number to update
    #[tool(range(min = 1))]
    pub issue_number: f64,
    /// The issue type to set, or null to remove the current type
    #[tool(length(min = 1), required)]
    pub issue_type: Option<String>,
    /// Repository owner (username or organization)
    pub owner: String,
    /// One concise sentence explaining what specifically about the issue led you to choose this type. State the concrete signal (e.g. 'Reports a crash when saving' → bug, 'Asks for dark mode support' → feature).
    #[tool(length(max = 280))]
    pub rationale: Option<String>,
    /// Repository name
    pub repo: String,
}

// openai_cookbook__*.json: OpenAI's cookbook.

/// The temperature unit to use.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
#[tool(skip_doc)]
pub enum OpenaiCookbookUnit {
    Celsius,
    Fahrenheit,
}

/// Get the current weather
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_current_weather")]
pub struct OpenaiCookbookGetCurrentWeather {
    /// The city and state, e.g. San Francisco, CA
    pub location: String,
    /// The temperature unit to use. Infer this unit from the forecast location.
    pub format: OpenaiCookbookUnit,
}

/// Get an N-day weather forecast
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "get_n_day_weather_forecast")]
pub struct OpenaiCookbookGetNDayWeatherForecast {
    /// The city and state, e.g. San Francisco, CA
    pub location: String,
    /// The temperature unit to use. Infer this unit from the forecast location.
    pub format: OpenaiCookbookUnit,
    /// The number of days to forecast
    pub num_days: i64,
}

// openai_agents__*.json: the OpenAI Agents SDK's documentation, as the SDK derives the schemas.

/// A place, by latitude and longitude.
#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[tool(skip_doc)]
pub struct OpenaiAgentsLocation {
    pub lat: f64,
    pub long: f64,
}

/// Fetch the weather for a given location.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "fetch_weather")]
#[serde(deny_unknown_fields)]
pub struct OpenaiAgentsFetchWeather {
    /// The location to fetch the weather for.
    pub location: OpenaiAgentsLocation,
}

/// Read the contents of a file.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "fetch_data")]
#[serde(deny_unknown_fields)]
pub struct OpenaiAgentsFetchData {
    /// The path to the file to read.
    pub path: String,
    /// The directory to read the file from.
    #[tool(required)]
    pub directory: Option<String>,
}

/// Processes extracted user data
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "process_user")]
pub struct OpenaiAgentsProcessUser {
    pub username: String,
    pub age: i64,
}

// playwright__*.json: Playwright MCP's tools, as its server lists them.

// playwright__browser_click.json
/// Perform click on a web page
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_click")]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserClick {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
    /// Whether to perform a double click instead of a single click
    pub double_click: Option<bool>,
    /// Button to click, defaults to left
    pub button: Option<PlaywrightBrowserClickButton>,
    /// Modifier keys to press
    pub modifiers: Option<Vec<PlaywrightModifier>>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightBrowserClickButton {
    Left,
    Right,
    Middle,
}

#[derive(ToolSchema, Deserialize, Debug)]
pub enum PlaywrightModifier {
    Alt,
    Control,
    ControlOrMeta,
    Meta,
    Shift,
}

// playwright__browser_close.json
/// Close the page
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_close")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserClose {}

// playwright__browser_console_messages.json
/// Returns all console messages
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_console_messages")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserConsoleMessages {
    /// Level of the console messages to return. Each level includes the messages of more severe levels. Defaults to "info".
    #[tool(default = "info", required)]
    pub level: PlaywrightBrowserConsoleMessagesLevel,
    /// Return all console messages since the beginning of the session, not just since the last navigation. Defaults to false.
    pub all: Option<bool>,
    /// Filename to save the console messages to. If not provided, messages are returned as text.
    pub filename: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightBrowserConsoleMessagesLevel {
    Error,
    Warning,
    Info,
    Debug,
}

// playwright__browser_drag.json
/// Perform drag and drop between two elements
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_drag")]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserDrag {
    /// Human-readable source element description used to obtain the permission to interact with the element
    pub start_element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub start_target: String,
    /// Human-readable target element description used to obtain the permission to interact with the element
    pub end_element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub end_target: String,
}

// playwright__browser_drop.json
/// Drop files or MIME-typed data onto an element, as if dragged from outside the page. At least one of "paths" or "data" must be provided.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_drop")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserDrop {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
    /// Absolute paths to files to drop onto the element.
    pub paths: Option<Vec<String>>,
    /// Data to drop, as a map of MIME type to string value (e.g. {"text/plain": "hello", "text/uri-list": "https://example.com"}).
    pub data: Option<HashMap<String, String>>,
}

// playwright__browser_evaluate.json
/// Evaluate JavaScript expression on page or element
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_evaluate")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserEvaluate {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: Option<String>,
    /// () => { /* code */ } or (element) => { /* code */ } when element is provided
    pub function: String,
    /// Filename to save the result to. If not provided, result is returned as text.
    pub filename: Option<String>,
}

// playwright__browser_file_upload.json
/// Upload one or multiple files
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_file_upload")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserFileUpload {
    /// The absolute paths to the files to upload. Can be single file or multiple files. If omitted, file chooser is cancelled.
    pub paths: Option<Vec<String>>,
}

// playwright__browser_fill_form.json
/// Fill multiple form fields
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_fill_form")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserFillForm {
    /// Fields to fill in
    pub fields: Vec<PlaywrightFormField>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PlaywrightFormField {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
    /// Human-readable field name
    pub name: String,
    /// Type of the field
    pub r#type: PlaywrightFieldType,
    /// Value to fill in the field. If the field is a checkbox, the value should be `true` or `false`. If the field is a combobox, the value should be the text of the option.
    pub value: String,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightFieldType {
    Textbox,
    Checkbox,
    Radio,
    Combobox,
    Slider,
}

// playwright__browser_find.json
/// Search the accessibility snapshot of the current page for text or a regular expression. Returns matching snapshot nodes with a few lines of surrounding context (like search snippets), each shown under its path from the root of the tree, which is cheaper than capturing the whole snapshot when you only need to locate an element and its ref.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_find")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserFind {
    /// Plain text to search for in the page snapshot (case-insensitive substring match). Provide either text or regex, not both.
    pub text: Option<String>,
    /// Regular expression to search for in the page snapshot. Matching is case-sensitive by default; wrap the pattern in slashes to add flags, e.g. "/error/i" for case-insensitive. Provide either text or regex, not both.
    pub regex: Option<String>,
}

// playwright__browser_handle_dialog.json
/// Handle a dialog
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_handle_dialog")]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserHandleDialog {
    /// Whether to accept the dialog.
    pub accept: bool,
    /// The text of the prompt in case of a prompt dialog.
    pub prompt_text: Option<String>,
}

// playwright__browser_hover.json
/// Hover over element on page
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_hover")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserHover {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
}

// playwright__browser_navigate.json
/// Navigate to a URL
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_navigate")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserNavigate {
    /// The URL to navigate to
    pub url: String,
}

// playwright__browser_navigate_back.json
/// Go back to the previous page in the history
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_navigate_back")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserNavigateBack {}

// playwright__browser_network_request.json
/// Returns full details (headers and body) of a single network request, or a single part if `part` is set. Use the number from browser_network_requests.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_network_request")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserNetworkRequest {
    /// 1-based index of the request, as printed by browser_network_requests.
    #[tool(range(min = 1, max = 9007199254740991))]
    pub index: i64,
    /// Return only this part of the request. Omit to return full details.
    pub part: Option<PlaywrightBrowserNetworkRequestPart>,
    /// Filename to save the result to. If not provided, output is returned as text.
    pub filename: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum PlaywrightBrowserNetworkRequestPart {
    RequestHeaders,
    RequestBody,
    ResponseHeaders,
    ResponseBody,
}

// playwright__browser_network_requests.json
/// Returns a numbered list of network requests since loading the page. Use browser_network_request with the number to get full details.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_network_requests")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserNetworkRequests {
    /// Whether to include successful static resources like images, fonts, scripts, etc. Defaults to false.
    #[tool(default = false, required)]
    pub r#static: bool,
    /// Only return requests whose URL matches this regexp (e.g. "/api/.*user").
    pub filter: Option<String>,
    /// Filename to save the network requests to. If not provided, requests are returned as text.
    pub filename: Option<String>,
}

// playwright__browser_press_key.json
/// Press a key on the keyboard
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_press_key")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserPressKey {
    /// Name of the key to press or a character to generate, such as `ArrowLeft` or `a`
    pub key: String,
}

// playwright__browser_resize.json
/// Resize the browser window
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_resize")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserResize {
    /// Width of the browser window
    pub width: f64,
    /// Height of the browser window
    pub height: f64,
}

// playwright__browser_run_code_unsafe.json
/// Run a Playwright code snippet. Unsafe: executes arbitrary JavaScript in the Playwright server process and is RCE-equivalent.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_run_code_unsafe")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserRunCodeUnsafe {
    /// A JavaScript function containing Playwright code to execute. It will be invoked with a single argument, page, which you can use for any page interaction. For example: `async (page) => { await page.getByRole('button', { name: 'Submit' }).click(); return await page.title(); }`
    pub code: Option<String>,
    /// Load code from the specified file. If both code and filename are provided, code will be ignored.
    pub filename: Option<String>,
}

// playwright__browser_select_option.json
/// Select an option in a dropdown
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_select_option")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserSelectOption {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
    /// Array of values to select in the dropdown. This can be a single value or multiple values.
    pub values: Vec<String>,
}

// playwright__browser_snapshot.json
/// Capture accessibility snapshot of the current page, this is better than screenshot
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_snapshot")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserSnapshot {
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: Option<String>,
    /// Save snapshot to markdown file instead of returning it in the response.
    pub filename: Option<String>,
    /// Limit the depth of the snapshot tree
    pub depth: Option<f64>,
    /// Include each element's bounding box as [box=x,y,width,height] in the snapshot. Coordinates are viewport-relative, in CSS pixels (Element.getBoundingClientRect)
    pub boxes: Option<bool>,
}

// playwright__browser_tabs.json
/// List, create, close, or select a browser tab.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_tabs")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserTabs {
    /// Operation to perform
    pub action: PlaywrightBrowserTabsAction,
    /// Tab index, used for close/select. If omitted for close, current tab is closed.
    pub index: Option<f64>,
    /// URL to navigate to in the new tab, used for new.
    pub url: Option<String>,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightBrowserTabsAction {
    List,
    New,
    Close,
    Select,
}

// playwright__browser_take_screenshot.json
/// Take a screenshot of the current page. You can't perform actions based on the screenshot, use browser_snapshot for actions.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_take_screenshot")]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserTakeScreenshot {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: Option<String>,
    /// Image format for the screenshot. If unset, inferred from the filename extension, otherwise png.
    pub r#type: Option<PlaywrightBrowserTakeScreenshotType>,
    /// File name to save the screenshot to. Defaults to `page-{timestamp}.{png|jpeg|webp}` if not specified. Prefer relative file names to stay within the output directory.
    pub filename: Option<String>,
    /// When true, takes a screenshot of the full scrollable page, instead of the currently visible viewport. Cannot be used with element screenshots.
    pub full_page: Option<bool>,
    /// Image resolution scale. "css" produces a screenshot sized in CSS pixels (smaller, consistent across devices). "device" produces a high-resolution screenshot using device pixels (larger, accounts for the device pixel ratio). Default is css.
    #[tool(default = "css", required)]
    pub scale: PlaywrightBrowserTakeScreenshotScale,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightBrowserTakeScreenshotType {
    Png,
    Jpeg,
    Webp,
}

#[derive(ToolSchema, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum PlaywrightBrowserTakeScreenshotScale {
    Css,
    Device,
}

// playwright__browser_type.json
/// Type text into editable element
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_type")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserType {
    /// Human-readable element description used to obtain permission to interact with the element
    pub element: Option<String>,
    /// Exact target element reference from the page snapshot, or a unique element selector
    pub target: String,
    /// Text to type into the element
    pub text: String,
    /// Whether to submit entered text (press Enter after)
    pub submit: Option<bool>,
    /// Whether to type one character at a time. Useful for triggering key handlers in the page. By default entire text is filled in at once.
    pub slowly: Option<bool>,
}

// playwright__browser_wait_for.json
/// Wait for text to appear or disappear or a specified time to pass
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "browser_wait_for")]
#[serde(rename_all = "camelCase")]
#[serde(deny_unknown_fields)]
pub struct PlaywrightBrowserWaitFor {
    /// The time to wait in seconds
    pub time: Option<f64>,
    /// The text to wait for
    pub text: Option<String>,
    /// The text to wait for to disappear
    pub text_gone: Option<String>,
}
