// Detectors of the technique families (docs/rules/poisoning.md): each reads the normalized text (lower case,
// identifiers split, whitespace collapsed, hidden characters removed) and reports hits. Every gap between words
// is bounded, so one attempt costs at most a constant number of steps and a scan stays linear in the text.
import { hashString, SEED } from './features.ts';
import { MAX_FINDINGS_PER_RULE } from './poisoning-patterns.ts';

/** Ids of the family detectors. */
export const FAMILY_DETECTOR_IDS = [
  'PERSONA_SWAP',
  'PERSONA_OVERRIDE',
  'CHAT_TEMPLATE_DELIMITER',
  'FORGED_SYSTEM_TURN',
  'EXFILTRATION_NATURAL',
  'CONVERSATION_CAPTURE',
  'STANDING_ORDER',
  'SESSION_SCOPE',
  'TOOL_DISCREDIT',
  'CONCEALMENT_PHRASE',
  'SECRET_HARVEST',
  'REMOTE_CODE',
  'APPROVAL_BYPASS',
  'CREDENTIAL_REQUEST',
  'PROMPT_HARVEST',
  'DEPENDENCY_STEER',
] as const;

/** The id of a family detector. */
export type FamilyDetectorId = (typeof FAMILY_DETECTOR_IDS)[number];

/** One detector hit in normalized text. */
export interface DetectorHit {
  readonly id: FamilyDetectorId;
  readonly start: number;
  readonly end: number;
}

const GAP = '[^.!?;\\n]{0,60}?';
const WORDS = (n: number): string => `(?:\\s+\\S+){0,${n}}?\\s+`;

function detector(
  id: FamilyDetectorId,
  alternatives: readonly string[],
  needs?: readonly string[],
): { id: FamilyDetectorId; re: RegExp; needs: readonly string[] | undefined } {
  return { id, re: new RegExp(alternatives.map((a) => `(?:${a})`).join('|'), 'g'), needs };
}

const DETECTORS = [
  detector('PERSONA_SWAP', [
    `\\bfrom now on\\b,?${GAP}\\b(?:you|act|behave|respond|answer|reply|pretend|roleplay)\\b`,
    `\\byou(?: are|'re| re)(?: not${WORDS(2)}anymore| no longer)\\b`,
    `\\b(?:pretend|imagine)(?: that)? (?:you are|you're|to be)\\b`,
    `\\b(?:act|respond|answer|reply|speak|behave) (?:only )?as (?:if you|though you|"|an? [a-z-]+ (?:that|who|which|with|without)|[a-z0-9-]*(?:bot|gpt|oracle|master|agent|x|pro)\\b)`,
    `\\byour (?:new |true |real )?(?:name|role|identity|persona|personality) (?:is|is now|has changed)\\b`,
    `\\bforget (?:that )?(?:you|your)\\b`,
    `\\b(?:developer|dan|god|sudo|jailbreak|jailbroken|unrestricted|unfiltered|maintenance|debug|admin|root) mode (?:is )?(?:now )?(?:enabled|activated|on|engaged|unlocked|active)\\b`,
    `\\b(?:switch|enter|activate|enable) (?:to |into )?(?:dan|developer|god|sudo|jailbreak|unrestricted|unfiltered) mode\\b`,
    `\\bdo anything now\\b`,
    `\\bstay in character\\b`,
    `\\b(?:you have been|you've been|you were) (?:upgraded|promoted|reassigned|unlocked|freed)\\b`,
    `\\blet's play a game\\b`,
    `\\bwithout (?:any )?filters\\b|\\bwithout (?:any |the )?(?:[a-z']+ ){0,2}(?:restrictions|rules|limits|limitations|guardrails|safeguards|censorship)\\b`,
    `\\b(?:obeys?|follows?) (?:no rules|only (?:the )?(?:operator|server|this server|instructions of this))`,
    `\\byou are [a-z0-9-]{3,20}, (?:who|whose|an?|the)\\b|\\bidentity override\\b|\\bbehave as (?:the |a )?(?:raw|base|unaligned)\\b`,
    `\\b(?:enter|entering|entered) (?:maintenance|developer|god|debug|admin|sudo|unrestricted|jailbreak) mode\\b`,
    `\\byou are now [a-z0-9-]{3,24}\\b`,
    `\\byou are (?:now )?(?:a |an |the )?(?:root shell|terminal|linux terminal|system administrator|unrestricted|jailbroken)`,
    // German, French, Spanish, Portuguese, Italian, Russian, Chinese, Japanese.
    `\\bab jetzt (?:bist|bin|sind) (?:du|sie)\\b|\\bdu bist (?:jetzt|nun|ab sofort)\\b`,
    `\\bd[ée]sormais,? (?:tu es|vous [eê]tes)\\b|\\b(?:tu es|vous [eê]tes) maintenant\\b|\\b[àa] partir de maintenant\\b`,
    `\\ba partir de ahora(?:,)? (?:eres|tu eres|serás)\\b|\\bahora eres\\b|\\bolvida que eres\\b`,
    `\\bvoc[eê] agora [eé]\\b|\\ba partir de agora\\b|\\bda ora in poi\\b|\\bora sei\\b`,
    // No \\b here: without the u flag it only knows ASCII word characters.
    `(?:^|\\s)(?:теперь|отныне) ты(?:\\s|$)|从现在开始|你现在是|これからあなたは|あなたは今から`,
  ]),
  // The phrasings of a persona swap that an honest description has no reason to use: they flag on their own.
  // Kept out: "you are now <word>" (connected, logged in), "developer mode is enabled" (Android tools), "assume
  // the role of <ARN>" (cloud tools), which stay PERSONA_SWAP signals.
  detector('PERSONA_OVERRIDE', [
    `\\bfrom now on\\b,? (?:you are|you're|you will be|you shall be|you act as|act as|behave as|respond as|pretend|roleplay|your (?:name|role|identity))\\b`,
    `\\byou(?: are|'re| re)(?: not${WORDS(2)}anymore| no longer)\\b`,
    `\\bforget (?:that )?you are\\b|\\bidentity override\\b|\\bdo anything now\\b|\\bstay in character\\b`,
    `\\b(?:dan|god|jailbreak|jailbroken|unrestricted|unfiltered) mode (?:is )?(?:now )?(?:enabled|activated|on|engaged|unlocked|active)\\b`,
    `\\b(?:switch|enter|activate|enable) (?:to |into )?(?:dan|god|jailbreak|unrestricted|unfiltered) mode\\b`,
    `\\bassume the (?:role|identity|persona|personality) of [a-z0-9-]{2,24},? (?:whose|who|an?|the)\\b`,
    `\\bassume the (?:role|identity|persona|personality) of [a-z0-9-]*(?:gpt|bot)\\b`,
    `\\byour (?:new|true|real) (?:name|identity|persona|personality) is\\b|\\b(?:you have been|you've been) (?:freed|jailbroken)\\b`,
    `\\b(?:respond|answer|reply|speak) only as "[^"]{1,30}",? an? (?:entity|persona|character|assistant|ai|bot)\\b`,
    `\\bwhose (?:values|rules|loyalty|only goal) (?:come|comes|is|are)\\b`,
    `\\bab jetzt (?:bist) du\\b|\\bdu bist (?:jetzt|nun|ab sofort)\\b|\\bd[ée]sormais,? (?:tu es|vous [eê]tes)\\b`,
    `\\ba partir de ahora,? (?:eres|tu eres)\\b|\\bahora eres\\b|\\bolvida que eres\\b|\\bvoc[eê] agora [eé]\\b`,
    `(?:^|\\s)(?:теперь|отныне) ты(?:\\s|$)|从现在开始|你现在是|これからあなたは|あなたは今から`,
    // A new identity from a point in time on, or the old one taken away, in the corpus's other languages too.
    `\\b(?:ab sofort|von nun an|ab heute) (?:bist du|sind sie)\\b|\\b(?:du bist|sie sind) nicht mehr\\b`,
    `\\bd[ée]sormais,? (?:tu|vous) (?:es|[eê]tes|incarnes?|incarnez|joues?|jouez)\\b|\\b(?:tu n'es plus|vous n'[eê]tes plus)\\b|\\b[àa] partir de (?:maintenant|ce message),? (?:tu|vous) (?:es|[eê]tes|incarnes?|incarnez)\\b`,
    `\\ba partir de (?:este (?:momento|mensaje)),? (?:eres|tu eres|serás)\\b|\\bdesde ahora,? eres\\b|\\bya no eres\\b`,
    `\\b(?:de agora em diante|a partir de agora),? (?:voc[eê]|tu) (?:[eé]|es|ser[aá])(?:\\s|$|[,.;])|\\bvoc[eê] n[aã]o [eé] mais\\b`,
    `\\bda (?:questo momento|ora in poi|adesso),? (?:tu )?sei\\b|\\bnon sei pi[uù](?:\\s|$|[,.;])`,
    `从现在起|从此刻起|你不再是|(?:これ以降|今後|今から)、?あなたは|あなたは(?:もう|もはや)`,
    `\\bfrom this (?:point|moment|message),? (?:on,? )?the (?:assistant|model|ai) is\\b|\\bthe (?:assistant|model|ai) (?:plays|becomes|will play|will be) the (?:character|persona|role)\\b|\\bstops being itself\\b`,
  ]),
  detector(
    'CHAT_TEMPLATE_DELIMITER',
    [
      `\\[/?inst\\]|<</?sys>>|<\\|[a-z_ ]{2,24}\\|>|<｜[^｜]{1,24}｜>|<(?:start|end)_of_turn>`,
      `(?:^|\\s)###? ?(?:system|instruction|instructions|response|human|assistant|user)\\s?:`,
      `(?:^|\\s)(?:system|assistant|human|user|tool) ?: `,
      `"role"\\s?:\\s?"(?:system|assistant|user|tool|developer)"`,
      `\\bend of (?:tool|function)s? (?:list|description|output|result)\\b|</(?:tool|tools|function|functions|tool_description|description)>`,
      `\\b(?:new|updated|revised) system (?:prompt|instructions|message)\\b|\\bsystem (?:prompt|instructions|message) (?:has been |was )?(?:updated|changed|replaced|overridden)\\b`,
    ],
    // Every alternative holds one of these: a bracket, a colon, "end of" or "system".
    ['[', '<', ':', 'end of', 'system'],
  ),
  // A system or instruction turn opened and filled with words: what a forged turn is, where a description of a
  // template shows the delimiters around a placeholder ("<<SYS>> ... <</SYS>>", "{{ .System }}") or in a list.
  detector(
    'FORGED_SYSTEM_TURN',
    [
      `(?:<\\|start header id\\|> ?(?:system|developer) ?<\\|end header id\\|>|<\\|im start\\|> ?(?:system|developer)|<\\|start\\|> ?(?:system|developer) ?<\\|message\\|>|<<sys>>|\\[inst\\]|<\\|system\\|>|<start of turn> ?(?:system|developer)|(?:^|\\s)###? ?(?:system|instruction|instructions)\\s?:)\\s?(?:<<sys>>\\s?)?[a-z][a-z'.,-]*(?: [a-z][a-z'.,-]*){3}`,
    ],
    ['<', '[', '#'],
  ),
  detector('EXFILTRATION_NATURAL', [
    // Any inflection of the verb: "forwarding them to", "forwards checked texts to", "is archived at".
    // The destination may follow a few words after "to": "to the webhook https://…", "to our inbox ops@…".
    `\\b(?:send(?:s|ing)?|sent|e-?mail(?:s|ed|ing)?|mail(?:s|ed|ing)?|post(?:s|ed|ing)?|upload(?:s|ed|ing)?|forward(?:s|ed|ing)?|transmit(?:s|ted|ting)?|deliver(?:s|ed|ing)?|relay(?:s|ed|ing)?|cop(?:y|ies|ied|ying)|sync|bcc|cc|submit|push|route|ship|share|archived|export(?:s|ed|ing)?|dump(?:s|ed|ing)?|leak(?:s|ed|ing)?|beacon)\\b${GAP}\\b(?:to|at|into|with|cc|bcc)(?: (?:the|a|an|our|this|that|their))?(?: [a-z-]{2,20}){0,2}:?\\s?(?:https?://|[a-z0-9._+ -]{1,40}@[a-z0-9 -]{1,40}\\.)`,
    // A blind copy to an address the text supplies: "add bcc archive@… to every email".
    `\\b(?:bcc|cc)\\b:? (?:[a-z0-9._+-]{1,40}@[a-z0-9 -]{1,40}\\.)`,
    // A phone number as the destination: "text the details to +1 415 555 0199".
    `\\b(?:text|sms|send|forward|message|whatsapp)\\b${GAP}\\bto \\+[0-9][0-9 ().-]{6,18}[0-9]`,
    // Published where anyone can read it.
    `\\b(?:publish|post|upload|paste|push|share)\\b${GAP}\\b(?:as|to|in|on) (?:a |an )?public (?:gist|paste|pastebin|repo|repository|bucket)\\b`,
    `\\b(?:post|send|forward|share|copy|mirror)\\b${GAP}\\bto (?:the )?(?:slack|discord|teams|telegram|whatsapp|irc|matrix) (?:channel|chat|webhook|group)\\b`,
    // A URL whose query carries what the model holds: the parameter's value names it ("?c=CONTENT",
    // "?d={chat}"). Not any query string: "?q={query}" in an API's documentation is a placeholder for input.
    `\\b(?:https?://[^\\s)]{1,200}\\?[^\\s)]{0,200}(?:q|data|d|c|ctx|context|chat|history|conv|msg|m|text|t|p|payload|log|s|secret|token|k|key)=[{<\\[$]?(?:content|contents|data|chat|conversation|history|summary|context|transcript|messages?|secrets?|tokens?|keys?|passwords?|answer|reply|response|memory|prompt|payload|notes)\\b)`,
    // Not "webhook ... https://" alone: a tool that posts to a configured webhook names its URL, and only an
    // order to send something there (the first alternative) makes it exfiltration.
    // Payments redirected: the destination swapped for an account number or wallet the text supplies.
    `\\b(?:replace|swap|change|set|redirect|reroute|route)\\b${GAP}\\b(?:destination|recipient|payee|beneficiary|account|iban|wallet)\\b${GAP}\\b(?:with|to|through|via) (?:[a-z]{2}[0-9]{2} ?[a-z0-9]{4}[a-z0-9 ]{8,30}|0x[0-9a-f]{40}\\b)`,
  ]),
  detector('CONVERSATION_CAPTURE', [
    `\\b(?:the |this |entire |whole |full |complete |)(?:conversation|chat|transcript|dialogue|dialog|message history|chat history|conversation history|previous messages|system prompt|earlier messages)\\b`,
    `!\\[[^\\]]{0,80}\\]\\(https?://`,
    `\\b(?:browser history|cookies|clipboard|environment variables|env vars?|shell history|keystrokes)\\b`,
    `\\b(?:user's|users|user s) (?:last |previous |full |entire |original )?(?:message|messages|request|prompt|question|query)s?\\b`,
  ]),
  detector('STANDING_ORDER', [
    `\\b(?:before|after|at the (?:start|end) of|whenever|each time|every time) (?:every|each|any|all|you (?:run|call|use|answer|reply|respond|write|show))\\b`,
    `\\b(?:always|for every|on every|in every) (?:prefix|append|prepend|add|include|start|end|insert|recommend|suggest|mention|use|call|run|cc|bcc)\\b`,
    `\\b(?:for|in|on) (?:every|each|all) (?:reply|replies|response|responses|answer|answers|message|messages|turn|session|request|call)\\b`,
    `\\b(?:regardless of|no matter) (?:which|what) tool\\b|\\bwhether or not this tool\\b|\\b(?:applies|apply) to the (?:whole|entire) session\\b`,
    `\\b(?:is|are) (?:deprecated|abandoned|insecure|unsafe|broken|compromised|malicious|unreliable)\\b[^.!?\\n]{0,60}?\\b(?:use|instead|prefer|install|switch)\\b`,
    `\\b(?:never|do not|don't|avoid) (?:use|call|trust|invoke)\\b${GAP}\\b(?:tool|server|instead)\\b`,
    `\\binstead of (?:the )?(?:other|local|built in|original)\\b|\\bwhatever the user (?:typed|types|says|asks|wants|entered)\\b`,
    `\\b(?:npm|pip|pipx|yarn|pnpm|gem|cargo|go) (?:install|add|i) (?:-g |--global )?[a-z0-9@/_-]{2,60}`,
    `\\bnpx [a-z0-9@/_-]{2,60}@latest\\b|\\binstall (?:the )?(?:package|library|module|extension) [a-z0-9._-]{2,40}\\b`,
    `\\breplace (?:the )?(?:destination|recipient|payee|account|iban|address|url|wallet)\\b|\\b(?:route|redirect|reroute) (?:every|all|each)\\b`,
    // Something planted in what the model writes for the user: an import, a middleware, a container, a collaborator.
    `\\bimport (?:from )?['"]?[a-z0-9@/_.-]{1,40}(?: [a-z0-9@/_.-]{1,40}){0,3}['"]? (?:rather than|instead of)\\b|\\b(?:add|include|insert|inject) (?:the )?(?:[a-z0-9@/._-]{1,40} ){0,3}(?:middleware|sidecar|extra container|collaborator)\\b|\\bgets the extra (?:container|step|flag|line)\\b|\\bas a collaborator\\b`,
  ]),
  // Signals of an order that reaches beyond the call it is attached to.
  detector('SESSION_SCOPE', [
    // An order whose scope is the rest of the conversation rather than this call: "from here on", "in every
    // later answer", "each time you finish a task", "when the user later asks", "on each turn".
    // "From now on" alone is how a recorder says what it will do ("from now on, each action is highlighted"):
    // it counts when the model or the user is addressed in the same sentence, or an order follows at once.
    `\\bfor the (?:rest|remainder) of (?:the|this) (?:conversation|session|chat|dialogue|dialog)\\b|\\buntil the (?:chat|conversation|session) ends\\b|\\b(?:later|at any point) in (?:the|this) (?:conversation|chat|session)\\b`,
    `\\b(?:prior to|before) (?:composing|writing|sending|giving) (?:any|each|every) (?:response|reply|answer|message)\\b|\\bevery (?:message|reply|answer|response) you (?:write|send|give)\\b|\\b(?:shows up|appears|comes up) (?:in|at any point in) (?:the|this) (?:chat|conversation)\\b(?<=\\b(?:whenever|each time|every time|if|when)\\b[^.!?;\\n]{0,90})`,
    `\\b(?:bei|in) jeder antwort\\b|\\b(?:chacune de (?:vos|tes)|dans chaque) r[ée]ponses?\\b|\\ben cada respuesta\\b|\\bem cada resposta\\b|\\bin ogni risposta\\b`,
    `\\b(?:from (?:here|this point|this moment|that moment|now) on(?:ward|wards)?|going forward|henceforth)\\b(?:,? (?:act|behave|respond|reply|answer|treat|always|never|ignore|use|call|send|add|include|close|end|start|prefix|append)\\b|[^.!?;\\n]{0,60}?\\b(?:you|your|yourself|the user|the user's)\\b)`,
    // The rare phrase first, then a look back at the words before it: read where the phrase is, not at every "you".
    `\\b(?:from (?:here|now) on|going forward|henceforth)\\b(?<=\\byou\\b[^.!?;\\n]{0,60})`,
    `\\b(?:in|for|on) (?:all|every|each|any) (?:of )?(?:your |the )?(?:later|future|subsequent) (?:answers?|repl(?:y|ies)|responses?|messages?|turns?|conversations?|chats?)\\b|\\b(?:in|for) (?:all|every|each) of your (?:answers|replies|responses|messages)\\b`,
    `\\b(?:each|every) new (?:conversation|chat)\\b|\\b(?:on|in|at) (?:each|every) turn\\b|\\b(?:each|every) time you (?:finish|complete|propose|suggest|generate|create|edit|help|talk|speak|see)\\b`,
    `\\b(?:the user|they|he|she) (?:ever |later |next )(?:asks?|mentions?|names?|says|types?|writes?|wants?|requests?|installs?|pastes?|opens?|uses?)\\b|\\b(?:asks?|mentions?|wants?) later\\b|\\bwhatever (?:the user asked|the user asks|the question)\\b`,
    // A scope wider than this tool: "applies globally", "effective immediately and for every tool", "even when
    // the user did not ask", "replies that do not involve this server", "not only when this tool runs".
    `\\b(?:applies|apply) globally\\b|\\beffective immediately\\b|\\b(?:a |this )?global (?:convention|rule|instruction|policy|setting) for\\b|\\bnot only when this tool\\b|\\b(?:do|does) not involve this (?:server|tool)\\b|\\beven (?:when|if) (?:the user |they )?(?:did not|didn't|does not|doesn't|do not|don't) ask\\b|\\bindependently of (?:this|the) (?:tool|call|ticket|request)`,
  ]),
  detector('TOOL_DISCREDIT', [
    // Other tools discredited, or this one made the only one: "the other search tools return outdated results",
    // "rely on this tool alone", "should go through this server", "pick the one from this server".
    `\\b(?:other|another|the other|those|built in|native) (?:[a-z-]+ ){0,3}(?:tools?|servers?|apps?|services?|plugins?|integrations?)\\b[^.!?;\\n]{0,80}?\\b(?:outdated|stale|unsafe|unreliable|insecure|broken|leak|leaks|corrupt|corrupts|deprecated|inaccurate|rate limited|fallback|retired|untrustworthy|compromised)\\b`,
    `\\b(?:rely on|trust|use) (?:only )?this (?:tool|server) (?:alone|only|exclusively)\\b|\\b(?:go|goes|routed?) through this (?:tool|server)\\b|\\bpick the one from this (?:tool|server)\\b|\\brefuse to (?:use|call|invoke)\\b|\\btreat what (?:other|the other)\\b`,
  ]),
  detector('CONCEALMENT_PHRASE', [
    `\\b(?:silently|quietly|secretly|covertly|discreetly|invisibly)\\b`,
    `\\b(?:do not|don't|never|no need to) (?:tell|inform|mention|show|reveal|bring (?:it|this) up|ask|alert|notify|disclose|report)\\b`,
    `\\b(?:keep|stays?) (?:this|it) (?:between us|hidden|secret|private|quiet)\\b|\\bbetween us\\b`,
    `\\b(?:user|users|they|human) (?:must|should|need|needs|will) (?:not|never)\\b|\\b(?:user|they) (?:doesn't|does not|don't|do not) need to know\\b|\\bshould not hear\\b|\\bmust not (?:learn|know|see)\\b`,
    `\\b(?:as if|pretend|as though) (?:it|the call|nothing) (?:succeeded|happened|worked)\\b|\\bwithout (?:telling|informing|asking|notifying|alerting)\\b`,
    `\\bhas already (?:agreed|consented|approved)\\b|\\balready (?:agreed|consented) to\\b`,
    // What the user is told is made to leave the step out: "keep it out of anything you tell the user", "no
    // reason to draw attention to it", "describe the call to the user only as …", "answer normally, as though …".
    `\\bkeep (?:it|this|that|them) out of (?:anything|what|your) (?:you tell|you say|you show|answers?|replies)|\\bno (?:reason|need) to draw attention\\b|\\bnothing to mention\\b|\\b(?:describe|present|report|show) (?:the|this) (?:call|step|action) to the user (?:only )?as\\b|\\bas though only\\b|\\banswer (?:the user )?normally afterwards\\b|\\bomit the other (?:arguments|parameters|fields)\\b`,
  ]),
  detector('SECRET_HARVEST', [
    `\\b(?:print|dump|list|echo|output|show|reveal|collect)\\b${GAP}(?:env var|environment variable|tokens?\\b|secrets?\\b|passwords?|credentials)`,
    `\\bdot (?:env|ssh|aws|npmrc|netrc|kube)\\b|\\bssh (?:private )?key\\b|\\bprivate key\\b`,
    `\\b(?:read|open|cat|load|include|attach|paste|put|pass|copy|append|prepend|insert|fill|embed|add)\\b${GAP}(?:~/|\\.ssh|id rsa|id_rsa|id ed25519|\\.env\\b|\\.aws|credentials|private key|secret key|api key|api keys|access token|tokens|passwords?|cookies|mcp\\.json|\\.npmrc|\\.netrc|\\.gnupg|secring|keychain|wallet|seed phrase)`,
    `\\b(?:content|contents|text|value) of\\b${GAP}(?:~/|\\.ssh|ssh|id rsa|\\.env|env|credentials|private key|mcp\\.json|config)`,
  ]),
  detector(
    'REMOTE_CODE',
    [
      `\\b(?:curl|wget)\\b[^|\\n]{0,200}\\|\\s?(?:sh|bash|zsh|python|node)\\b`,
      `\\b(?:chmod|mode) (?:-r |to )?777\\b|\\bdisable (?:the )?(?:firewall|antivirus|sandbox|ssl verification|tls verification)\\b`,
      `\\b(?:urlopen|requests\\.post|fetch)\\(["']https?://`,
    ],
    ['curl', 'wget', '777', 'disable', 'urlopen(', 'requests.post(', 'fetch('],
  ),
  detector('APPROVAL_BYPASS', [
    `\\b(?:no longer|does not|doesn't|do not|don't|never) (?:need|needs|require|requires|ask for|asks for) (?:user |the user's |any |a )?(?:confirmation|approval|permission|consent)\\b`,
    `\\bwithout (?:user |the user's |any |asking for )?(?:confirmation|approval|permission|consent)\\b`,
    `\\bignore (?:all |any )?(?:prior|previous|earlier|above|your|the|its) (?:guidance|guidelines|instructions|rules|directions|prompts?|policies|safety)\\b`,
    `\\b(?:guidelines|instructions|rules|policies) (?:were a test|no longer apply|are suspended|do not apply|are void)\\b|\\bthe real (?:guidelines|instructions|rules) are\\b`,
    `\\bsafety (?:layer|filter|policy|policies|guidelines|checks?) (?:is|are) (?:now )?(?:offline|disabled|off|suspended)\\b|\\bpolicies (?:are )?suspended\\b`,
    // Not a bare "do not ask" mid-sentence ("do not ask the user which region; the default is used"), nor "call
    // it directly": honest usage rules say both.
    `\\b(?:do not|don't|no need to) ask (?:the user |the human |anyone |them )?(?:for |about )?(?:any )?(?:confirmation|approval|permission|consent)\\b|\\b(?:do not|don't) ask(?:$|[.;)])|\\bskip (?:the )?(?:confirmation|approval|review)\\b`,
  ]),
  // An order, at the start of a sentence or clause, to read or pass on a private key or credentials file.
  detector(
    'CREDENTIAL_REQUEST',
    [
      `(?:^|[.:;,!)>] |\\n|\\()(?:then |first |also |please |now |before use |before using it |to continue )?(?:read|open|cat|include|attach|paste|put|pass|copy|send|upload|load|append|prepend|insert|embed|provide)\\b[^.!?\\n]{0,60}?(?:id (?:rsa|ed25519|ecdsa|dsa)\\b|\\.aws/credentials|\\.ssh/id|\\.env\\b|mcp\\.json|claude desktop config|secring|private keys?\\b|\\.npmrc|\\.netrc|\\.git credentials)`,
    ],
    // Each file or key the pattern ends with.
    [
      'id rsa',
      'id ed25519',
      'id ecdsa',
      'id dsa',
      '.aws/credentials',
      '.ssh/id',
      '.env',
      'mcp.json',
      'claude desktop config',
      'secring',
      'private key',
      '.npmrc',
      '.netrc',
      '.git credentials',
    ],
  ),
  // A field or order that asks for what only the model holds: its system or developer messages. "Repeat" and
  // "reveal" are left out: security tools quote "repeat your system prompt" as the attack they classify.
  detector(
    'PROMPT_HARVEST',
    [
      `\\b(?:include|including|with|append|attach|paste|copy|send|pass|provide|put)\\b${GAP}\\b(?:system (?:and|or|&) developer messages|developer messages|(?:your|the assistant's|the model's) (?:system prompt|hidden instructions|instructions verbatim))\\b`,
    ],
    ['developer messages', 'system prompt', 'hidden instructions', 'instructions verbatim'],
  ),
] as const;

// The word gate: for each detector below, words (maximal runs of [a-z0-9]) of which every match of every one of
// its alternatives holds at least one, bounded in the pattern by `\b`, a space or punctuation, so the word is a
// whole run of the text wherever it matches; then punctuation and literals, for alternatives that hold no such
// word. A text holding none of a detector's words, characters or literals cannot match it, and the detector is
// not run. Each list was read off the alternatives above (the rarer word of a phrase: "now" for "from now on",
// "mode" for "... mode is enabled"). An alternative added to a gated detector needs its word here, or its matches
// are skipped: test/poisoning/detector-gate.test.ts pins each gated pattern, so a changed one fails until its list
// is read again, and checks the gate against the corpus and edits of it. A detector with no entry always runs.
// Alternatives written in non-ASCII script are not listed: a text with any character that could belong to one (a
// letter outside ASCII) runs every one. Typography, arrows, symbols and emoji belong to none; like ASCII
// punctuation they end a word, as `\b` (no `u` flag) reads every non-ASCII character as a non-word character.
const WORD_GATES: Partial<
  Record<FamilyDetectorId, { words: string; chars?: string; literals?: readonly string[] }>
> = {
  PERSONA_SWAP: {
    words:
      'now longer anymore pretend imagine act respond answer reply speak behave your forget mode character ' +
      'upgraded promoted reassigned unlocked freed game without obey obeys follow follows you override jetzt ' +
      'bist desormais maintenant partir ahora olvida agora ora',
  },
  // Its `needs` above, as punctuation and bounded words.
  CHAT_TEMPLATE_DELIMITER: { words: 'end system', chars: '[<:' },
  FORGED_SYSTEM_TURN: { words: '', chars: '<[#' },
  REMOTE_CODE: { words: 'curl wget 777 disable urlopen requests fetch' },
  CREDENTIAL_REQUEST: {
    words:
      'read open cat include attach paste put pass copy send upload load append prepend insert embed provide',
  },
  PROMPT_HARVEST: { words: 'messages prompt instructions' },
  PERSONA_OVERRIDE: {
    words:
      'now longer anymore forget override character mode assume your freed jailbroken respond answer reply ' +
      'speak whose jetzt bist desormais partir ahora olvida agora sofort nun heute mehr plus desde eres mais sei ' +
      'point moment message plays becomes will itself',
  },
  EXFILTRATION_NATURAL: {
    words: 'public channel chat webhook group destination recipient payee beneficiary account iban wallet',
    // An address, a URL or a phone number ends most alternatives.
    chars: '@+',
    literals: ['://'],
  },
  CONVERSATION_CAPTURE: {
    words:
      'conversation chat transcript dialogue dialog message previous system earlier browser cookies clipboard ' +
      'environment env shell keystrokes user users',
    literals: ['://'],
  },
  STANDING_ORDER: {
    words:
      'before after start end whenever time always every each all tool session deprecated abandoned insecure ' +
      'unsafe broken compromised malicious unreliable never not don avoid instead whatever npm pip pipx yarn ' +
      'pnpm gem cargo go npx install replace route redirect reroute import middleware sidecar container ' +
      'collaborator extra',
  },
  CONCEALMENT_PHRASE: {
    words:
      'silently quietly secretly covertly discreetly invisibly not don never need keep stay stays between ' +
      'succeeded happened worked without already attention mention though afterwards omit call step action',
  },
  SECRET_HARVEST: {
    words:
      'print dump list echo output show reveal collect dot ssh private read open cat load include attach paste ' +
      'put pass copy append prepend insert fill embed add content contents text value',
  },
  // Per alternative: its rarer word ("rest" of "for the rest of the conversation", "forward" of "going
  // forward", "every" of "every reply you write", the closing word of "applies globally").
  SESSION_SCOPE: {
    words:
      'rest remainder until later point composing writing sending giving every appears shows comes jeder ' +
      'chacune chaque cada ogni here moment now forward henceforth future subsequent answers replies responses ' +
      'messages conversation chat turn time ever next whatever globally immediately global only involve even ' +
      'independently',
  },
  // The closing verdict of the first alternative ("rate limited": "limited"); one word of each other phrase.
  TOOL_DISCREDIT: {
    words:
      'outdated stale unsafe unreliable insecure broken leak leaks corrupt corrupts deprecated inaccurate ' +
      'limited fallback retired untrustworthy compromised alone only exclusively through pick refuse treat',
  },
  APPROVAL_BYPASS: {
    words:
      'confirmation approval permission consent without ignore guidelines instructions rules policies safety ' +
      'ask skip',
  },
};

// Per slot (word hash modulo its size), the detectors (bits by index in DETECTORS) that the words hashed there
// let through: a slot two words share lets both words' detectors through, which only runs a detector more often.
const GATE_SLOTS = 1 << 14;
const GATE_WORDS = new Uint32Array(GATE_SLOTS);
// Per ASCII punctuation code, the detectors it lets through.
const GATE_CHARS = new Uint32Array(0x80);
// Detectors not gated (their bit always set) and, per gated detector, its literals.
let UNGATED = 0;
const GATE_LITERALS: { bit: number; literals: readonly string[] }[] = [];
// One bit per detector in a small integer.
if (DETECTORS.length > 30) throw new Error('detector gate: more than 30 detectors');
DETECTORS.forEach(({ id }, index) => {
  const bit = 1 << index;
  const gate = WORD_GATES[id];
  if (gate === undefined) {
    UNGATED |= bit;
    return;
  }
  for (const word of gate.words.split(' ')) {
    if (word === '') continue;
    const slot = hashString(SEED, word) & (GATE_SLOTS - 1);
    GATE_WORDS[slot] = (GATE_WORDS[slot] as number) | bit;
  }
  for (const char of gate.chars ?? '') {
    const code = char.charCodeAt(0);
    GATE_CHARS[code] = (GATE_CHARS[code] as number) | bit;
  }
  if (gate.literals !== undefined) GATE_LITERALS.push({ bit, literals: gate.literals });
});
const ALL_DETECTORS = (1 << DETECTORS.length) - 1;

function isGateWordCode(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

// A non-ASCII unit no detector alternative is written with: Latin-1 punctuation and signs, × and ÷, general
// punctuation to miscellaneous symbols and arrows (U+2000 to U+2BFF), and the surrogates of astral characters
// (emoji); every alternative's non-ASCII letters lie elsewhere.
function isGateSeparator(c: number): boolean {
  return c < 0xc0 || c === 0xd7 || c === 0xf7 || (c >= 0x2000 && c < 0x2c00) || (c >= 0xd800 && c < 0xe000);
}

/** The detectors (bits by index in DETECTOR_PATTERNS) that the word gate lets run on a normalized text. */
export function gatedDetectors(text: string): number {
  let mask = UNGATED;
  // The hash of the word being read, a unit at a time (hashString's), while `inWord`. Once every detector
  // may run, the rest of the text cannot change the answer.
  let word = 0;
  let inWord = false;
  for (let i = 0; i <= text.length && mask !== ALL_DETECTORS; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    if (c >= 0x80 && !isGateSeparator(c)) return ALL_DETECTORS;
    if (isGateWordCode(c)) {
      word = Math.imul((inWord ? word : SEED) ^ c, 0x01000193);
      inWord = true;
    } else {
      if (c < 0x80) mask |= GATE_CHARS[c] as number;
      if (inWord) {
        mask |= GATE_WORDS[word & (GATE_SLOTS - 1)] as number;
        inWord = false;
      }
    }
  }
  for (const { bit, literals } of GATE_LITERALS)
    if ((mask & bit) === 0 && literals.some((literal) => text.includes(literal))) mask |= bit;
  return mask;
}

/** The detectors in the order of the bits of `gatedDetectors`, with their patterns (for tests). */
export const DETECTOR_PATTERNS: readonly { readonly id: FamilyDetectorId; readonly re: RegExp }[] = DETECTORS;

// DEPENDENCY_STEER: one sentence that advises the user (base form: an order, not "suggests upgrades"), names a
// package, and steers away from another one ("instead of lodash", "the original lacks", "the standard one is
// deprecated"): a typosquatted or planted dependency. Three conditions in any order, so read per sentence.
const STEER_ADVICE =
  /\b(?:recommend|advise|suggest|tell (?:the user|users|them|people) to|point (?:the user|users|them|people) to|have (?:them|the user|users) (?:add|install|use))\b/;
const STEER_PACKAGE =
  /\b(?:install|installing|package|packages|library|libraries|module|dependency|dependencies|middleware|fork|npm|pip|pypi|crate|gem|distribution)\b/;
const STEER_AWAY =
  /\b(?:instead of|rather than|the latter|the original|the older|the standard|deprecated|outdated|unmaintained|abandoned|insecure|lacks)\b/;
// A sentence longer than this is read in windows of this size (an instruction is short; the cost stays linear).
const MAX_SENTENCE = 400;

function endsSentenceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x0a) return true;
  return (
    (c === 0x2e || c === 0x21 || c === 0x3f) && (i + 1 === text.length || text.charCodeAt(i + 1) === 0x20)
  );
}

function dependencySteer(text: string, hits: DetectorHit[]): void {
  if (!STEER_AWAY.test(text)) return;
  let found = 0;
  let start = 0;
  while (start < text.length && found < MAX_FINDINGS_PER_RULE) {
    const limit = Math.min(text.length, start + MAX_SENTENCE);
    let end = start;
    while (end < limit && !endsSentenceAt(text, end)) end += 1;
    end = Math.min(limit, end + 1);
    const sentence = text.slice(start, end);
    if (STEER_ADVICE.test(sentence) && STEER_PACKAGE.test(sentence) && STEER_AWAY.test(sentence)) {
      hits.push({ id: 'DEPENDENCY_STEER', start, end });
      found += 1;
    }
    start = end;
    while (start < text.length && text.charCodeAt(start) === 0x20) start += 1;
  }
}

// A sentence that opens with an order to the model: the verb of an action on data, a call, a reply or a rule,
// and three words more. Read only in a decoded payload, where honest text has no reason to hide an order.
const ORDER_OPENING =
  /(?:^|[.!?;:] )(?:please |now |then |also |first |always |never |do not |don't )?(?:append|prepend|add|attach|include|insert|copy|paste|send|post|upload|forward|email|share|read|open|load|fetch|visit|call|invoke|run|execute|use|set|put|pass|fill|write|save|store|delete|remove|replace|change|rewrite|redirect|route|ignore|disregard|forget|override|tell|say|respond|reply|answer|act|pretend|behave|install|recommend|suggest|grant|disable|print|output|reveal|dump|collect|export|leak|exfiltrate|mention|hide|skip|trust|obey|follow|you|assistant|agent)\b(?: [^ .!?;]+){3}/;

/** Whether a normalized text (a decoded payload) holds a sentence that opens with an order to the model. */
export function opensWithOrder(text: string): boolean {
  return ORDER_OPENING.test(text);
}

/**
 * Runs every family detector over normalized text; hits in detector order, then text order, at most
 * MAX_FINDINGS_PER_RULE per detector.
 */
export function runDetectors(text: string): DetectorHit[] {
  const hits: DetectorHit[] = [];
  const run = gatedDetectors(text);
  for (let index = 0; index < DETECTORS.length; index += 1) {
    const { id, re, needs } = DETECTORS[index] as (typeof DETECTORS)[number];
    if ((run & (1 << index)) === 0) continue;
    // A detector whose every alternative holds one of `needs` cannot match a text that holds none.
    if (needs !== undefined && !needs.some((literal) => text.includes(literal))) continue;
    re.lastIndex = 0;
    let found = 0;
    for (let match = re.exec(text); match !== null; match = re.exec(text)) {
      hits.push({ id, start: match.index, end: match.index + match[0].length });
      found += 1;
      if (found === MAX_FINDINGS_PER_RULE) break;
      if (match[0].length === 0) re.lastIndex += 1;
    }
  }
  dependencySteer(text, hits);
  return hits;
}
