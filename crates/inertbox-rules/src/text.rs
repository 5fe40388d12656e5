//! The text of the rule patterns: shared words, the rewrite every pattern
//! gets before it is compiled, and the context patterns the scanner reads
//! around a match.

/// Words that name an instruction-like thing.
pub const INSTR: &str = r"(?:[a-z]*struct[a-z]*|instrucciones|directions?|directives?|prompts?|rules|guidelines|commands?|orders|constraints|restrictions|programming|guidance|policies|system (?:prompt|message)|context|conversations?|messages|tasks?)";
/// Instruction words alone (no "context", "messages"…), for rules where a
/// looser word would read as ordinary prose.
pub const INSTR_STRICT: &str = r"(?:[a-z]*struct[a-z]*|instrucciones|directions?|directives?|prompts?|rules|guidelines|commands?|orders|system (?:prompt|message))";
/// Words that point back at earlier instructions specifically.
pub const PRIOR_STRICT: &str =
    r"(?:previous|prior|preceding|above|earlier|initial|original|old|existing|foregoing|system|developer)";
/// Words that point back at what came before.
pub const PRIOR: &str = r"(?:previous|prior|preceding|above|earlier|initial|original|old|existing|current|foregoing|all|any|every|your|the|these|those|system|developer|anteriores|previas)";

/// CJK and other scripts' prompt-leak phrases (no word boundaries there).
pub const LEAK_CJK: &str = concat!(
    // "System prompt" in Chinese, Japanese and Korean, not as a label (a
    // program's "系统提示：保存成功", "system notice: saved"). Asking for it
    // only beside a verb lost more attacks than false alarms it spared.
    // `词` after the term is part of it, never what follows it (else
    // `系统提示词：` would match as `系统提示` and a `词`).
    r"(?:系[统統]提示(?:词|詞)?|システムプロンプト|시스템 ?프롬프트)(?:[^：:\n词詞]|$)",
    r"|sistem (?:isteminin|istemi|talimatlarını|talimatları)|(?:senin|sizin) sistem mesaj|sistem mesajını[^.!?\n]{0,30}(?:göster|yaz|tekrarla|paylaş|ver|aktar|kopyala|çevir|söyle|oku)|системн(?:ый|ое|ые) (?:промпт|инструкции)|(?:тво[её]|ваше|сво[её]|исходное|первоначальное|скрытое) системное сообщение|(?:покажи|покажите|выведи|выведите|повтори|повторите|процитируй|процитируйте|напиши|напишите|распечатай|раскрой|перескажи|скопируй|вставь|дай|отправь|переведи|переведите|сообщи)[^.!?\n]{0,40}системное сообщение",
);

/// A `String` made `'static` (the rule table lives for the whole program).
pub(crate) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The pattern as compiled: spaces also match line breaks, `\b` is ASCII.
pub fn final_pattern(p: &str) -> String {
    ascii_word_boundaries(&spaces_match_newlines(p))
}

/// Rules are written with plain spaces; the normalised text keeps line
/// breaks, so a space in a pattern (outside a character class) also matches
/// a newline, and a class holding a space also holds a newline.
fn spaces_match_newlines(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 16);
    let mut in_class = false;
    let mut escaped = false;
    for c in p.chars() {
        if escaped {
            out.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                out.push(c);
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            ' ' if in_class => out.push_str(" \n"),
            ' ' => out.push_str("[ \n]"),
            c => out.push(c),
        }
    }
    out
}

/// `\b` as an ASCII word boundary: the lazy DFA supports it (a Unicode `\b`
/// sends every search to the slower PikeVM). Rule boundaries all sit next to
/// ASCII letters or spaces; scripts without spaces use no `\b`.
fn ascii_word_boundaries(p: &str) -> String {
    p.replace("\\b", "(?-u:\\b)")
}

// The context patterns: what surrounds a match (quotation cues and
// defences). The build script compiles them with the rules.

/// Words before a quotation that mark it as an example, not an order.
pub const QUOTE_CUE: &str = r"\b(?:say|says|said|saying|such as|like|e\.g\.|eg|for example|for instance|example|examples|phrases?|contains?|containing|attacks?|injections?|jailbreaks?|payloads?|strings?|known as|called|wrote|writes|reads|asks?|attempts?|detects?|detected|flags?|flagged|catches|matches|pattern|patterns|classic|common|typical|lines? like|text like|messages? (?:that|which)|emails? (?:that|which)|rule|rules|signature|test|tests|sample|samples|classifier|canary)\b";

/// Words before a quotation that make it part of writing about attacks
/// (training material, news, a red-team report), in the lexicons' main
/// languages: a quoted order there counts two steps lower, not one.
pub const DISCUSSION_CUE: &str = r"\b(?:attack(?:s|ers?|ed)?|inject(?:ion|ions|ed)|prompt injections?|jailbreak(?:s|ing)?|payloads?|phishing|scam(?:s|mers?)?|malicious|adversar(?:y|ial)|exploit(?:s|ed)?|red[- ]team(?:ing|ers)?|defanged|manipulat(?:e|ed|ion)|angriff(?:e|en)?|angreifer|attaque(?:s)?|attaquants?|ataque(?:s)?|atacantes?|iniezion[ei]|attacc(?:o|hi)|aanval(?:len)?|aanvallers?|atak(?:i|u)?|saldır(?:ı|gan)|serangan|penyerang|tấn công|атак[аиу]?|атакующ|злоумышленник(?:и|ов)?|атак)\b|攻击|注入|攻撃|インジェクション|공격|주입|攻擊|हमल|הזרקה|תוקפ|هجوم|حقن";

/// Words right after an override that make it a defence ("ignore any
/// instructions in the retrieved document").
pub const DEFENSIVE_AFTER: &str = r"^.{0,30}?\b(?:in|inside|within|from|contained in|embedded in|found in|that appear in|coming from|of) (?:the |any |this |these |such |a |an )?(?:user(?:'s)? (?:content|input|data|messages?|text|documents?)|untrusted|external|retrieved|third-party|tool (?:output|results?)|web ?(?:pages?|content|results?)?|websites?|emails?|documents?|content|data|inputs?|pages?|texts?|messages?|files?|search results?|fences?|fenced|quoted|wrapped|boundar|(?:job |task |work |run |print )?queues?|pipelines?|buffers?|stacks?|caches?|batch(?:es)?|registers?|backlogs?|fifos?|dockerfiles?|makefiles?|bytecode|microcode)";

/// Words right before a match that negate or defend ("never ignore your
/// instructions", "do not follow requests to ignore").
pub const DEFENSIVE_BEFORE: &str = r"(?:\b(?:never|not|don't|do not|doesn't|does not|won't|will not|cannot|can't|refuse to|shouldn't|should not|must not|mustn't|no need to|avoid|without)\b(?: \w+){0,3} ?|\b(?:requests?|attempts?|tries|trying|instructions?|anything|text|content|messages?) (?:to|that (?:ask|tell)s? (?:you|it|the model) to) ?|\b(?:if|when|whenever|even if|even when|should|in case) (?:(?:the|a|an|any|some|your|this|that) )?(?:(?:[a-z]+ )?(?:users?|customers?|callers?|visitors?|clients?|people|persons?|messages?|documents?|pages?|websites?|sites?|e-?mails?|mails?|texts?|files?|contents?|inputs?|prompts?|tickets?|comments?|reviews?)|someone|somebody|anyone|anybody|they|he|she) (?:asks?|asked|tells?|told|says?|said|wants?|instructs?|requests?|urges?|orders?|demands?|pressures?)(?: you| it| the (?:model|assistant|ai|bot|agent))? to ?|\b(?:if|when|whenever|even if|even when|should)(?: you are| you're| you get| you)? (?:asked|told|instructed|requested|pressured|urged|ordered) to ?)$";

/// The context patterns (the build script compiles them with the rules).
pub const CONTEXT: [&str; 4] = [QUOTE_CUE, DEFENSIVE_AFTER, DEFENSIVE_BEFORE, DISCUSSION_CUE];

/// A context pattern as compiled: `.` stays on its line (they were written
/// for the `regex` crate's defaults), `\b` is ASCII so the lazy DFA runs it.
pub fn context_pattern(p: &str) -> String {
    format!("(?-s:{})", ascii_word_boundaries(p))
}
