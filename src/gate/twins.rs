//! Look-alike targets: two addresses that differ by a few characters
//! (`lena@northfield-labs.com` and `lena@northfield-labs.co`), or name one
//! person at two domains. When what was read holds a target's twin, the
//! content offered two versions of one person, which is how an injected "my
//! address moved" note reads; a target from content with a twin is not the
//! user's own work however clean the content read. (For accounts any other
//! account read is a twin: `decide::ContentNotes`.)

/// Is the edit distance between `a` and `b` at most `k`? (Banded: about
/// `(2k + 1) × len` steps.)
pub(crate) fn within(a: &[u8], b: &[u8], k: usize) -> bool {
    if a.len().abs_diff(b.len()) > k {
        return false;
    }
    let n = b.len();
    let big = k + 1;
    let mut prev: Vec<usize> = (0..=n).map(|j| j.min(big)).collect();
    let mut cur = vec![big; n + 1];
    for (i, &ca) in a.iter().enumerate() {
        let i = i + 1;
        let lo = i.saturating_sub(k).max(1);
        let hi = (i + k).min(n);
        cur.iter_mut().for_each(|c| *c = big);
        cur[0] = i.min(big);
        let mut best = cur[0];
        for j in lo..=hi {
            let sub = prev[j - 1] + usize::from(ca != b[j - 1]);
            let v = sub.min(prev[j] + 1).min(cur[j - 1] + 1).min(big);
            cur[j] = v;
            best = best.min(v);
        }
        if best > k {
            return false;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[n] <= k
}

/// Two different addresses (lower case) that read as one: domains a
/// couple of edits apart, a mailbox of the same name (or sharing a
/// person's name: `lena.fischer` and `lena`) at another domain, or one
/// mailbox name an edit away from another at the same domain.
pub(crate) fn emails(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    let (Some((la, da)), Some((lb, db))) = (a.rsplit_once('@'), b.rsplit_once('@')) else {
        return false;
    };
    if da != db {
        la == lb
            || within(da.as_bytes(), db.as_bytes(), 2)
            || domains(da, db)
            || mailbox_words(a).any(|w| mailbox_words(b).any(|v| v == w))
    } else {
        la.len().min(lb.len()) >= 5 && within(la.as_bytes(), lb.as_bytes(), 1)
    }
}

/// The name a domain is registered under, without its suffix
/// (`mail.acme.co.uk` → `acme`): the last label but one, or but two after a
/// second-level suffix of a country (`co.uk`, `com.au`).
fn registered(domain: &str) -> (&str, &str) {
    let labels: Vec<&str> = domain.trim_end_matches('.').rsplit('.').collect();
    let country = labels.len() >= 3
        && labels[0].len() == 2
        && matches!(labels[1], "co" | "com" | "org" | "net" | "ac" | "gov" | "edu" | "ne" | "or");
    let at = if country { 2 } else { 1 };
    let name = labels.get(at).copied().unwrap_or("");
    // What follows the name: its suffix (`com`, `co.uk`).
    let d = domain.trim_end_matches('.');
    let suffix_len = labels[..at.min(labels.len())].iter().map(|l| l.len() + 1).sum::<usize>().saturating_sub(1);
    (name, &d[d.len() - suffix_len.min(d.len())..])
}

/// Two domains of different owners that read as one: one name at two
/// suffixes (`thornbury.com`, `thornbury.net`), or one name inside the
/// other's, joined by a hyphen (`quillon.example`, `quillon-hr.test`,
/// `hr-quillon.com`). Subdomains of one name (`mail.acme.com`) are one
/// owner.
pub(crate) fn domains(a: &str, b: &str) -> bool {
    let ((na, sa), (nb, sb)) = (registered(a), registered(b));
    if na.is_empty() || nb.is_empty() {
        return false;
    }
    if na == nb {
        return sa != sb;
    }
    // A name inside the other (`quillon-hr`, `northfieldgroup`), or a label
    // of one host that is the other's name (`northfield.example.relay.test`).
    let inside = |long: &str, short: &str, host: &str| {
        short.len() >= 4
            && (long.split('-').any(|p| p == short)
                || (short.len() >= 5 && (long.starts_with(short) || long.ends_with(short)))
                || host.trim_end_matches('.').split('.').any(|l| l == short))
    };
    inside(na, nb, a) || inside(nb, na, b)
}

/// Does this term of a `w` value look like an account number as the
/// words keep it (country letters, check digits, then at least ten
/// letters or digits)?
pub(crate) fn account_term(t: &str) -> bool {
    let b = t.as_bytes();
    (12..=34).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_alphabetic)
        && b[2..4].iter().all(u8::is_ascii_digit)
        && b.iter().all(u8::is_ascii_alphanumeric)
}

/// The words of an address's mailbox name that can name a person
/// (`lena.fischer` → `lena`, `fischer`; not `info`, `contact`, `booking`).
pub(crate) fn mailbox_words(address: &str) -> impl Iterator<Item = &str> {
    let local = address.rsplit_once('@').map_or("", |(l, _)| l);
    local.split(|c: char| !c.is_alphanumeric()).filter(|w| {
        w.chars().count() >= 3
            && !matches!(
                *w,
                "info"
                    | "mail"
                    | "email"
                    | "contact"
                    | "admin"
                    | "support"
                    | "hello"
                    | "team"
                    | "office"
                    | "sales"
                    | "billing"
                    | "help"
                    | "noreply"
                    | "service"
                    | "booking"
                    | "bookings"
                    | "reservations"
                    | "desk"
                    | "news"
                    | "the"
                    | "and"
                    | "finance"
                    | "accounts"
                    | "accounting"
                    | "payroll"
                    | "legal"
                    | "security"
                    | "ops"
                    | "operations"
                    | "marketing"
                    | "helpdesk"
                    | "services"
                    | "customer"
                    | "payments"
                    | "payment"
                    | "invoices"
                    | "invoice"
                    | "orders"
                    | "receipts"
                    | "notifications"
                    | "hr"
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn distance(a: &[u8], b: &[u8]) -> usize {
        let mut d: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut prev = d[0];
            d[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let old = d[j + 1];
                d[j + 1] = (prev + usize::from(ca != cb)).min(old + 1).min(d[j] + 1);
                prev = old;
            }
        }
        d[b.len()]
    }

    proptest! {
        /// The banded test agrees with the full edit distance.
        #[test]
        fn banded_agrees_with_full_distance(a in "[abc.]{0,12}", b in "[abc.]{0,12}", k in 0usize..4) {
            prop_assert_eq!(within(a.as_bytes(), b.as_bytes(), k), distance(a.as_bytes(), b.as_bytes()) <= k);
        }
    }

    #[test]
    fn twins_are_near_copies_of_one_target() {
        assert!(emails("lena.fischer@northfield-labs.com", "lena.fischer@northfield-labs.co"));
        assert!(emails("dora@dora-site.com", "dora.contact@dora-site.co"));
        assert!(emails("jo.whitfield@carrow-design.com", "jo.whitfield@carrow-designs.com"));
        assert!(emails("ann@work.example", "ann@home.example"));
        assert!(emails("lena.fischer@northfield.example", "lena@mail-relay.test"));
        assert!(!emails("info@alpha.example", "info.desk@bravo.test"));
        assert!(emails("marco.ruiz@x.example", "marco.ruis@x.example"));
        assert!(emails("grace@thornbury-facilitation.com", "walt@thornbury-facilitation.net"));
        assert!(emails("luca@quillon.example", "noor@quillon-hr.test"));
        assert!(emails("luca@acme.co.uk", "noor@acme.com"));
        assert!(!emails("luca@mail.acme.com", "noor@acme.com"));
        assert!(!emails("luca@acme.com", "noor@zenith-labs.com"));
        assert!(!emails("luca@ab.com", "noor@ab-cd.net"));
        assert!(emails("luca@northfield.example", "noor@northfieldgroup.example"));
        assert!(emails("luca@northfield.example", "noor@northfield.example.relay.test"));
        assert!(!emails("luca@acme.co.uk", "noor@mail.acme.co.uk"));
        assert!(!emails("marco.ruiz@x.example", "sun.li@x.example"));
        assert!(!emails("ann@gmail.com", "bob@outlook.com"));
        assert!(!emails("a@x.example", "a@x.example"));
        assert!(account_term("de58100110012620384415"));
        assert!(!account_term("2024-07-01"));
        assert!(!account_term("northfield"));
    }
}
