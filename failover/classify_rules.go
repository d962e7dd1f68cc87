package failover

// A rule maps a pattern over the lower-cased error text to a reason. Rules
// are data: the tables below are tried in order and the first match wins.
type rule struct {
	pattern string
	reason  Reason
}

// textRules are the phrases that name a reason whatever the status (SPEC
// §5.1, OpenClaw's order): the more specific reasons come first, so that
// "the model is overloaded" is not a missing model and a 429 saying
// insufficient_quota is billing. Patterns are regular expressions matched
// against the lower-cased text; they are compiled once, on first use.
var textRules = []rule{
	// A successful status whose body is not the event stream asked for (an
	// HTML page, a whole JSON answer), in the words the provider packages
	// use (llmhttp): first, because the page's own text (its title, a
	// "502 Bad Gateway" inside it) must not pass for the provider's error.
	{`\bnot an event stream\b`, ReasonMalformed},

	// A provider-side conversation, session or response item that is gone.
	{`\b(?:session|conversation|thread|container)(?:[_ ]id)?\b[^.\n]{0,40}?\b(?:not found|does not exist|doesn't exist|no longer exists|has expired|is expired|expired|is invalid)`, ReasonSessionExpired},
	{`\bno (?:such session|conversation found|session found)\b|\binvalid session\b|\bsession[_ ]expired\b`, ReasonSessionExpired},
	{`\bprevious[_ ]response(?:[_ ]id)?\b[^\n]{0,120}?\b(?:not found|does not exist|expired|no longer)`, ReasonSessionExpired},
	{`\bitem with id\b[^\n]{0,80}?\bnot found\b`, ReasonSessionExpired},

	// Windowed quotas and throttles first: "Request too large … tokens per
	// min" and "Too many tokens, please wait" are rate limits, not an
	// overflow of the model's context.
	{`\b(?:tokens|requests) per (?:min(?:ute)?|hour|day)\b|\b(?:tpm|rpm|tpd|rpd)\b[^\n]{0,40}\blimit|\blimit\b[^\n]{0,40}\b(?:tpm|rpm|tpd|rpd)\b`, ReasonRateLimit},
	{`\bquota exceeded for (?:quota )?metric\b|\bservice ?quota\b|\bexceeds? (?:the |your )?(?:service )?quota\b|\bresource_exhausted\b|\bquota_?metric\b|\bfree_tier_(?:requests|input_token)|\btoo many (?:tokens|requests)\b[^\n]{0,20}\bwait\b|\bplease wait before (?:trying again|retrying)\b`, ReasonRateLimit},

	// The model does not exist or is not served here.
	{`\bmodel_not_found\b|\bmodel[_ ]is[_ ]deactivated\b|\bno such model\b|\bunknown model\b|\binvalid model\b|\bmodel not exists?\b`, ReasonModelNotFound},
	{`\bmodels?\b[^\n]{0,60}?\b(?:not found|does not exist|doesn't exist|not exist|is not supported|has been (?:deprecated|decommissioned|deactivated|retired)|is (?:deprecated|decommissioned|deactivated|retired)|no longer (?:available|supported)|marked\b[^\n]{0,20}\bas legacy|(?:reached )?end of (?:its )?life)`, ReasonModelNotFound},
	{`\bmodel (?:identifier|id|name)\b[^.\n]{0,20}\binvalid\b|\bnot a valid model\b|\bno endpoints found\b|\bdoes not have access to (?:the )?model\b|\bon-demand throughput is(?:n['’]t| not) supported\b|\bsupport on-demand throughput\b|\bdeployment ?not ?found\b|\bdeployment for this resource does not exist\b|\brequested entity was not found\b`, ReasonModelNotFound},

	// The output-token cap asked for is above what the model allows: a bad
	// parameter, not a conversation that no longer fits.
	{`\b(?:max(?:imum)?[_ ](?:output[_ ])?tokens|max_completion_tokens|max_output_tokens)\b(?: you requested| requested)?:?\s*(?:\d+\s*)?(?:>|exceeds? (?:the )?(?:model(?:'s)? )?(?:output )?(?:token )?limit\b|is (?:too large|greater than)\b)|\bmaximum allowed number of output tokens\b|\bvalid range of max_tokens\b`, ReasonFormat},

	// The conversation no longer fits the model's context window.
	{`context[_ ](?:length|window)[_ ]exceeded\b|\brequest (?:size )?exceeds the maximum (?:size|allowed)\b|\bmaximum context length\b|\bcontext (?:window|length|size|limit)\b[^\n]{0,40}?\b(?:exceed|overflow|too long|too large)|\bexceeds? (?:the )?(?:model'?s? )?(?:maximum |max |available )?context\b`, ReasonContextOverflow},
	{`\b(?:prompt|input|request|message|messages|conversation)s? (?:is |are )?too (?:long|large)\b|\brequest_too_large\b|\bcontent'?:? string (?:is )?too long\b|\bstring_(?:above_max_length|too_long)\b|\btoo many (?:input |prompt )?tokens\b|\bentity too large\b|\bpayload too large\b`, ReasonContextOverflow},
	{`\b(?:token|tokens) (?:count |length )?\b[^\n]{0,40}?\bexceeds?\b[^\n]{0,40}?\b(?:limit|maximum|max)\b|\bexceeds? (?:the )?(?:maximum|max) (?:number of )?(?:input )?tokens\b|\bexceeded (?:the )?model(?:'s)? token limit\b|\bmodel token limit\b`, ReasonContextOverflow},
	{`\bcontext size has been exceeded\b|\bconfigured context size\b|\bexceeds the available context size\b|\bmust have less than \d+ tokens\b|\btokens \+ .max_new_tokens. must be\b|\bcontext overflow\b|\breduce the length of the (?:messages|prompt|input)\b|\bout of room in the model'?s context window\b|\blonger than (?:the )?(?:maximum|max) (?:model |context |sequence )?length\b|\bmax_model_len\b|\bcontext (?:length|window|size) is only\b|\bmaximum input length\b|\bmax_tokens\b[^\n]{0,40}\bexceed\b[^\n]{0,20}\bcontext\b`, ReasonContextOverflow},

	// A real refusal: the same request fails on any profile, yet it is not malformed.
	{`\bcontent[_ -]?(?:policy|filter|management policy|moderation)|\bsafety (?:system|filter|settings? blocked)\b|\bresponsible ai\b|\b(?:blocked|block_?reason)\b[^\n]{0,40}\b(?:safety|prohibited|blocklist|spii|recitation)|\bprohibited_content\b|\bfinish_?reason\W{0,4}(?:safety|recitation|content_filter)\b|\bflagged (?:by|as|for)\b|\bcontent exists risk\b|\b(?:sensitive|inappropriate|unsafe|harmful) content\b|\brequires moderation\b|\bviolat(?:es|ion of|ing) (?:our|the)? ?(?:usage |content )?polic(?:y|ies)\b|\brefusal\b`, ReasonUnclassified},

	// The transcript would be rejected by any profile or model.
	{`\broles must alternate\b|\bmust alternate between\b|\bincorrect role information\b|\btool[_ ](?:use|result)(?:_id|\.id)?\b|\btool_call_id\b|\btool call id\b|\bmessages with role .tool. must be a response\b|\b(?:thinking|thought)[_ -]?signatures?\b|\bthinking\b[^\n]{0,80}\bsignature\b|\binvalid signature\b[^\n]{0,40}\bthinking\b|\bconversation must end with a user message\b|\bdoes not support assistant message prefill\b`, ReasonFormat},
	{`\bstring should match pattern\b|\binvalid request format\b|\bextra inputs are not permitted\b|\badditional properties are not allowed\b|\bunrecognized request argument\b|\b(?:unsupported|unknown|unrecognized) (?:param|parameter|argument|field|property)s?\b|\bis a required property\b|\bmissing required (?:parameter|field|argument)\b|\bfield required\b|\bis not of type\b|\binvalid schema\b|\bcould not parse the json body\b|\bfailed to (?:parse|deseriali[sz]e) (?:the )?(?:request|json)\b|\brequest body is not valid json\b|\bmalformed (?:input|json|request|body|payload)\b|\bextraneous (?:key|field|property)\b|\bjinja exception\b|\binvalid '[\w.\[\]-]+'(?::| \()|\bexpected an? (?:array|string|object|integer|number|boolean)\b|\bfailed to deseriali[sz]e\b|\binvalid (?:\w+ )?(?:value|type|parameter|argument)s?\b|\bonly supported (?:by|for|with|on) (?:certain|some|specific)\b|\bno (?:user|user/tool|user or tool) (?:message|query|turn)s?\b|\b(?:must|should) (?:contain|include|have|start with|end with) (?:at least one |an? )?(?:user|assistant|system|tool) (?:message|turn|role)\b|\bunsupported value\b|\bmust be one of\b|\b(?:does not|doesn't) support (?:tools?|tool (?:use|calling|calls)|function calling|images?|image input|vision|system (?:prompts?|messages?|role)|streaming|json mode|response_format|thinking|reasoning)\b|\bunknown variant\b`, ReasonFormat},

	// Money: the account cannot pay for the request.
	{`\binsufficient[_ ](?:credits?|quota|balance|funds)\b|\binsufficient \w+ balance\b|\bcredit balance\b|\b(?:out of|no|not enough|run out of|ran out of) credits?\b|\brequires? (?:more |additional |usage )?credits\b|\bcredits? (?:is |are )?required\b|\bpayment[_ ]required\b|\bspend(?:ing)? limit\b|\bplan and billing\b|\bplans & billing\b|\bbilling (?:details|hard limit|issue|account)\b|\bbilling[_ ]not[_ ]active\b|\benable billing\b|\bbilling (?:is )?(?:not enabled|disabled)\b|\baccount is not active\b|\btop[- ]?up\b|\brecharge\b|\badd (?:more )?(?:credits|funds|a payment method)\b|\bavailable balance\b|\bout of budget\b|\bexceeded your (?:monthly |current )?budget\b|\bbalance (?:is )?(?:too low|insufficient)\b|\barrears\b|\b(?:key|credit|spend(?:ing)?|budget) limit (?:exceeded|reached)\b|\bcredits? (?:are |is |have been |has been )?(?:depleted|exhausted|used up)\b|\bprepayment\b|\bprepaid (?:credits?|balance)\b|\b(?:free )?trial (?:has )?(?:ended|expired)\b|\bsubscription (?:has )?(?:expired|ended|lapsed)\b`, ReasonBilling},

	// Throttling and periodic usage limits: retry later or elsewhere.
	{`\brate[_ -]?limit|\btoo many (?:concurrent )?requests\b|\bresource[_ -]?exhausted\b|\bquota[_ -]?exceeded\b|\bquota (?:limit )?(?:exceeded|exhausted|reached)\b|\bexceeded (?:your |the )?(?:current )?quota\b|\bthrottl|\busage limits?\b|\bregain access\b|\b(?:hourly|daily|weekly|monthly)(?:/(?:daily|weekly|monthly))* (?:usage |request |token )?limits?\b|\bconcurrency limit\b|\bmodel_cooldown\b|\bslow down\b|\btoo many tokens per\b`, ReasonRateLimit},

	// The provider is busy: another model or a later retry may work.
	{`overloaded|\bat capacity\b|\bservice[_ ](?:temporarily[_ ])?unavailable\b|\btemporarily unavailable\b|\bhigh (?:demand|load|traffic)\b|\b(?:server|service|system|api) (?:is )?(?:currently )?busy\b|\b(?:no|insufficient|out of) capacity\b|\bcapacity (?:constraints|limits|problems|issues)\b|\b(?:under|down for) maintenance\b|\bno (?:free |idle )?slots? (?:is |are )?available\b|\bslot unavailable\b|\bcapacity[_ ]exceeded\b|\bmodelnotready|\bmodel is (?:currently )?(?:loading|not ready)\b|\bserviceunavailable(?:exception)?\b|\b(?:bedrock|service|server|model|system) is (?:currently )?unable to process (?:your|the|this) request\b`, ReasonOverloaded},

	// The credential is gone for good.
	{`\b(?:api[_ ]?)?key\b[^.\n]{0,20}?\b(?:has been |was |is )?(?:revoked|deactivated|disabled|deleted|suspended)\b|\b(?:account|organization|organisation|workspace|user|consumer)\b[^.\n]{0,60}?\b(?:has been |was |is )(?:deactivated|disabled|suspended|banned|terminated|restricted)\b|\b(?:account|organization|organisation|workspace|user)\b[^.\n]{0,20}?\b(?:deactivated|disabled|suspended|banned|terminated)\b|\bdeactivated[_ ]workspace\b|\baccount[_ ]deactivated\b|\bnot allowed for this organization\b`, ReasonAuthPermanent},

	// The credential is wrong, missing or lacks access.
	{`\binvalid[_ ]?(?:api[_ -]?)?key\b|\bapi[_ -]?key\b[^.\n]{0,30}?\b(?:invalid|not valid|incorrect|missing|expired|required|not found)\b|\bincorrect api key\b|\b(?:no|missing) (?:api[_ ]?key|credentials|authentication|authorization)\b|\bunauthori[sz]ed\b|\bunauthenticated\b|\bforbidden\b|\bauthenticat|\bpermission[_ ]denied\b|\bpermission_error\b|\baccess[_ ]?denied|\binvalid (?:bearer |access |auth |x-api-key|authorization|token|credentials)|\b(?:token|credentials?) (?:has |have )?expired\b|\bnot authorized\b|\binsufficient permissions?\b|\bsecurity token\b[^.\n]{0,40}?\b(?:invalid|expired)\b|\bexpiredtoken|\b(?:organization|account) (?:must be|is not|needs to be) verified\b|\bunrecognizedclient\b|\bsignature we calculated does not match\b|\baccess (?:is |was )?denied\b|\brequir(?:es|ing) (?:an? |your )?(?:api )?key\b|\buser not found\b`, ReasonAuth},

	// The provider failed on its side.
	{`\binternal[_ ]server[_ ]error\b|\binternal[_ ]error\b|\bserver[_ ]error\b|\bserver had an error\b|\bbad gateway\b|\bupstream (?:error|connect error|request failed|service error)\b|\bbackend error\b|\binternalfailure\b|\binternal_failure\b|\bmodelerrorexception\b|\bmodel_error\b|\berror occurred while processing\b|\bunexpected error occurred\b|\bweb server is down\b|\bfinish_?reason\W{0,4}error\b|\b(?:runner|server|engine|worker) process (?:has )?(?:terminated|exited|crashed|died|no longer running)\b|\brunner (?:has )?(?:unexpectedly )?(?:exited|crashed|terminated|stopped)\b|\bengine ?(?:core )?(?:is )?dead\b|\benginedeaderror\b|\bfailed to create context with model\b|\berror loading model\b|\b(?:unable|failed) to load (?:the )?model\b|\brequires more (?:system |gpu |v)?memory\b|\bout of memory\b|\berror (?:was )?encountered while running the model\b|\bunable to allocate\b`, ReasonServerError},

	// The answer succeeded and carried nothing.
	{`\bempty (?:response|completion|reply|message|choices|content|output)\b|\bwithout any content\b|\breturned (?:no|an empty) (?:content|response|choices|output)\b|\bno (?:choices|candidates) (?:returned|in (?:the )?response)\b|\bbut none were returned\b|\b(?:response|completion|output|reply|answer)s? (?:was|is|were|are|came back) empty\b|\b(?:did not|didn't|does not|doesn't) (?:provide|return|produce|generate|contain) any (?:assistant )?(?:messages?|content|output|text|response|choices|candidates)\b|\breturned (?:a response with )?no (?:choices|candidates)\b`, ReasonEmptyResponse},

	// The server's certificate could not be verified: before the transport
	// rule, which would otherwise take the connection error wrapped around it.
	{`\bx509\b|\btls: failed to verify\b|\bcertificate (?:verify|verification|has expired|is not valid|signed by unknown|is not trusted)|\bcertificate_verify_failed\b|\bself[- ]signed certificate\b|\bunable to (?:get local issuer|verify the first) certificate\b|\bcert_has_expired\b|\bhostname mismatch\b`, ReasonTLSCertificate},

	// The connection could not be made: refused, the host name does not
	// resolve, no route. Before the timeout rule: "dial tcp …: i/o timeout"
	// never reached the provider either. Go's forms ("dial tcp
	// 127.0.0.1:1: connect: connection refused", "dial tcp: lookup
	// x.invalid: no such host"), Node's (ECONNREFUSED, getaddrinfo
	// ENOTFOUND), Python's (NewConnectionError, [Errno -2] Name or service
	// not known), Windows' (actively refused).
	{`\bconnection refused\b|\beconnrefused\b|\bactively refused\b|\bno connection could be made\b|\bno route to host\b|\behostunreach\b|\bnetwork is unreachable\b|\benetunreach\b|\bno such host\b|\benotfound\b|\beai_again\b|\bgetaddrinfo\b|\bname or service not known\b|\bnodename nor servname\b|\btemporary failure in name resolution\b|\bcould not resolve host\b|\bdial tcp\b|\bproxyconnect\b|\bfailed to establish a new connection\b|\bnewconnectionerror\b|\bcannot connect to host\b|\bconnect call failed\b|\bcould not connect to\b`, ReasonNetwork},

	// The request or the connection timed out or was cut.
	{`\btime[ds]?[ -]?out\b|\btimeout\b|\bdeadline[_ ]exceeded\b|\bconnection (?:reset|aborted|closed|error|timed out|terminated)\b|\beconn(?:reset|aborted)\b|\betimedout\b|\besockettimedout\b|\bsocket hang up\b|\bunexpected eof\b|\beof\b|\bbroken pipe\b|\bepipe\b|\bnetwork error\b|\bfetch failed\b|\bstream (?:ended|closed|disconnected|was closed|was aborted)\b[^\n]{0,40}\b(?:before|without|unexpectedly|prematurely)\b|\bbefore message_stop\b|\bpremature(?:ly)? clos|\bincomplete (?:chunked )?(?:read|response|stream)\b|\boperation was aborted\b|\bund_err_|\bnetwork_error\b|\bclient closed request\b|\bconnecttimeouterror\b|\bapiconnectionerror\b|\berror communicating with\b|\bconnection error\b|\bconnecterror\b|\bmax retries exceeded with url\b|\bunexpected end of (?:json input|stream|data|file)\b|\binvalid json response body\b`, ReasonTimeout},
}

// typeHints map a provider's structured error type or code, or the name of
// the exception an SDK raised for it, to a reason: the last hint, used only
// when neither the text nor the status says more (SPEC §5.1). Keys are
// compared without case, underscores or dashes, so "bad_request",
// "BadRequest" and "BAD-REQUEST" are one key.
var typeHints = map[string]Reason{
	"invalid_request_error":            ReasonFormat,
	"invalid_argument":                 ReasonFormat,
	"bad_request":                      ReasonFormat,
	"bad_request_error":                ReasonFormat,
	"unprocessable_entity_error":       ReasonFormat,
	"failed_precondition":              ReasonFormat,
	"validation_exception":             ReasonFormat,
	"overloaded_error":                 ReasonOverloaded,
	"unavailable":                      ReasonOverloaded,
	"unavailable_error":                ReasonOverloaded,
	"service_unavailable_exception":    ReasonOverloaded,
	"api_error":                        ReasonServerError,
	"internal":                         ReasonServerError,
	"internal_server_error":            ReasonServerError,
	"internal_server_exception":        ReasonServerError,
	"upstream_error":                   ReasonServerError,
	"not_found_error":                  ReasonModelNotFound,
	"not_found":                        ReasonModelNotFound,
	"resource_not_found_exception":     ReasonModelNotFound,
	"authentication_error":             ReasonAuth,
	"permission_denied_error":          ReasonAuth,
	"access_denied_exception":          ReasonAuth,
	"unauthenticated":                  ReasonAuth,
	"rate_limit_error":                 ReasonRateLimit,
	"throttling_exception":             ReasonRateLimit,
	"model_timeout_exception":          ReasonTimeout,
	"api_timeout_error":                ReasonTimeout,
	"billing_error":                    ReasonBilling,
	"rate_limited":                     ReasonRateLimit,
	"too_many_requests":                ReasonRateLimit,
	"service_quota_exceeded_exception": ReasonRateLimit,
	"model_not_ready_exception":        ReasonOverloaded,
	"model_error_exception":            ReasonServerError,
	"model_stream_error_exception":     ReasonServerError,
	"invalid_model":                    ReasonModelNotFound,
	"template_error":                   ReasonFormat,
	"tool_use_failed":                  ReasonFormat,
	"json_validate_failed":             ReasonFormat,
	"expired_token_exception":          ReasonAuth,
	"unrecognized_client_exception":    ReasonAuth,
	"timeout_error":                    ReasonTimeout,
	"refusal":                          ReasonUnclassified,
	"content_filter":                   ReasonUnclassified,
}

// vagueTypes are names too broad to count when they appear loose in the
// text rather than in a type field: the SDKs' base class for any failure.
var vagueTypes = []string{"api_error"}

// statusRules map an HTTP status to its reason when the text names none.
var statusRules = map[int]Reason{
	400: ReasonFormat,
	401: ReasonAuth,
	402: ReasonBilling,
	403: ReasonAuth,
	404: ReasonModelNotFound,
	408: ReasonTimeout,
	413: ReasonContextOverflow,
	422: ReasonFormat,
	429: ReasonRateLimit,
	498: ReasonOverloaded,
	499: ReasonTimeout,
	500: ReasonServerError,
	502: ReasonServerError,
	503: ReasonOverloaded,
	504: ReasonTimeout,
	522: ReasonTimeout,
	524: ReasonTimeout,
	529: ReasonOverloaded,
}

// statusKeeps lists, per status, the only text reasons allowed to replace
// the status's own reason: a 429 stays a rate limit unless its text is
// billing, a 401 stays auth unless the key is gone for good or unpaid.
// Statuses not listed let any specific text win.
var statusKeeps = map[int][]Reason{
	401: {ReasonAuthPermanent, ReasonBilling, ReasonModelNotFound, ReasonRateLimit, ReasonSessionExpired, ReasonContextOverflow, ReasonUnclassified},
	402: {ReasonBilling, ReasonRateLimit},
	403: {ReasonAuthPermanent, ReasonBilling, ReasonModelNotFound, ReasonRateLimit, ReasonSessionExpired, ReasonContextOverflow, ReasonUnclassified},
	404: {ReasonSessionExpired, ReasonModelNotFound, ReasonContextOverflow, ReasonBilling, ReasonAuth, ReasonAuthPermanent, ReasonUnclassified},
	429: {ReasonBilling},
}

// transportOnly are the text reasons that describe our own connection, so
// they apply only when no status came back.
var transportOnly = []Reason{ReasonNetwork}

// retryWindow is how a 402 speaks of a limit that lifts by itself: then it
// is a rate limit, not an unpaid bill.
const retryWindow = `\b(?:try again|retry|resets?|rolling (?:time )?window|per (?:minute|hour|day)|(?:hourly|daily|weekly|monthly) (?:usage |request )?limit|cooldown)\b`

// genericOnly is an error whose only words say that something failed.
const genericOnly = `^(?:error|unknown error|an? (?:unknown |unexpected )?error(?: has)? occurred|(?:the )?provider returned (?:an )?error|something went wrong|request failed|the provider reported an error mid-stream|unknown error \(no error details in response\)|no error details|internal error occurred)[.!]?$`

// noBody is what an HTTP wrapper says when the response had no body.
const noBody = `^(?:\(?no body\)?|status code \(no body\)|no (?:response )?body|empty body)$`

// leadingStatus finds a status near the head of an error text, marked as
// one: at the very start ("429 …"), right after a marker word or bracket
// ("HTTP 402: …", "Error code: 400 - {…}", "status code: 400, …", "OpenAI
// API error (429): …", "API Error 400: …", "request failed [400]: …",
// "[Error]: 422 …", "请求错误（DeepSeek 400）：…"), or after the colon that
// closes an error's preamble ("Error in X call (attempt 1/3): 400 …",
// "Request failed after 3 retries: 429 …"). The caller still checks that
// the number is a status.
const leadingStatus = `^(?:[^\n]{0,100}?(?:` +
	`\b(?:error|failed|exception|status(?: code)?|code|http(?:/[\d.]+)?)\b[\])）]?[\s:=]*[\[(（'"]?` +
	`|[\[(（]` +
	`|\b(?:error|failed|exception)\b[^\n:]{0,80}:\s+` +
	`)\s*(?:[a-z][\w.-]*\s+)?)??([45]\d\d)\b[\])）'"]?[\s:,-]*`

// looseType finds identifiers in running text that may name an error type:
// snake_case words and names ending in Error or Exception.
const looseType = `\b[a-z]+(?:[_-][a-z]+)+\b|\b[a-z]+(?:error|exception)\b`

// Fields of a JSON (or Python-dict) error body, found without parsing so
// that truncated or quoted bodies still give them up.
const (
	fieldType    = `["'](?:type|status|code)["']\s*:\s*["']([a-z_-]+)["']`
	fieldCode    = `["'](?:code|status|status_?code|httpstatuscode)["']\s*:\s*["']?([45]\d\d)\b|\bstatus(?:[ _]?code)?\s*[:=]?\s*([45]\d\d)\b`
	fieldMessage = `["']message["']\s*:\s*["']([^"']*)["']`
)
