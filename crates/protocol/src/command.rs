//! Splitting a command line into words as a POSIX shell would, without running a shell.

use thiserror::Error;

/// Why a command line cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SplitCommandError {
    /// A quote is not closed.
    #[error("unclosed {quote} quote in command {command:?}")]
    UnclosedQuote {
        /// `single` or `double`.
        quote: &'static str,
        /// The command line.
        command: String,
    },
    /// The line ends with a lone backslash.
    #[error("command {command:?} ends with a lone backslash")]
    TrailingBackslash {
        /// The command line.
        command: String,
    },
    /// No program named.
    #[error("empty command: name a program to start")]
    Empty,
    /// A character a shell would treat specially (`|`, `;`, `&`, `<`, `>`, `$`, a backquote,
    /// a glob or a redirect): no shell runs here, so it would not do what it seems to.
    #[error(
        "{ch:?} in command {command:?} would need a shell, which is not run: quote it to pass \
         it as text, or start a script"
    )]
    ShellSyntax {
        /// The character.
        ch: char,
        /// The command line.
        command: String,
    },
}

/// Splits `line` into words as a POSIX shell does for a simple command, without running one:
/// words are separated by blanks; `'...'` keeps everything literally; `"..."` keeps
/// everything but `\"`, `\\`, `\$` and `` \` `` (a backslash before another character stays);
/// outside quotes a backslash keeps the next character. Unquoted characters that only a
/// shell gives meaning to (`| & ; < > $ ` * ? [ ] { }`, and `~` or `#` starting a word) are
/// refused rather than passed on, so nothing looks like a pipe, a variable or a pattern that
/// is not one. Round brackets are plain characters (no shell runs to give them a meaning), so
/// a word may hold a nested agent spec: `--agent blunder:agent=(alphabeta)`.
///
/// ```
/// use yomi_protocol::split_command;
/// let words = split_command(r#"yomi engine --agent 'othello:time=0.5' --name "my engine""#)?;
/// assert_eq!(words, ["yomi", "engine", "--agent", "othello:time=0.5", "--name", "my engine"]);
/// assert!(split_command("edax | tee log").is_err());
/// # Ok::<(), yomi_protocol::SplitCommandError>(())
/// ```
///
/// # Errors
/// [`SplitCommandError`] for an unclosed quote, a trailing backslash, shell syntax or an empty
/// line.
pub fn split_command(line: &str) -> Result<Vec<String>, SplitCommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => {
                            return Err(SplitCommandError::UnclosedQuote {
                                quote: "single",
                                command: line.to_string(),
                            })
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => {
                                return Err(SplitCommandError::UnclosedQuote {
                                    quote: "double",
                                    command: line.to_string(),
                                })
                            }
                        },
                        Some(c) => word.push(c),
                        None => {
                            return Err(SplitCommandError::UnclosedQuote {
                                quote: "double",
                                command: line.to_string(),
                            })
                        }
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => {
                    return Err(SplitCommandError::TrailingBackslash {
                        command: line.to_string(),
                    })
                }
            },
            '|' | '&' | ';' | '<' | '>' | '$' | '`' | '*' | '?' | '[' | ']' | '{' | '}' => {
                return Err(SplitCommandError::ShellSyntax {
                    ch: c,
                    command: line.to_string(),
                })
            }
            '~' | '#' if !in_word => {
                return Err(SplitCommandError::ShellSyntax {
                    ch: c,
                    command: line.to_string(),
                })
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(SplitCommandError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_command(s).unwrap()
    }

    #[test]
    fn words_and_quotes_as_a_shell_splits_them() {
        assert_eq!(split("  a  b\tc "), ["a", "b", "c"]);
        assert_eq!(split("'a b' \"c d\" e\\ f"), ["a b", "c d", "e f"]);
        assert_eq!(split("x'y'\"z\""), ["xyz"]);
        assert_eq!(split("''"), [""]);
        assert_eq!(split(r#""a\"b\\c\$d\e""#), [r#"a"b\c$d\e"#]);
        assert_eq!(split(r"'a\b'"), [r"a\b"]);
        assert_eq!(split("'a|b;c' \\|"), ["a|b;c", "|"]);
        assert_eq!(split("a=b x#y"), ["a=b", "x#y"]);
        assert_eq!(
            split("yomi --agent blunder:p=0.1,agent=(alphabeta:depth=2)"),
            ["yomi", "--agent", "blunder:p=0.1,agent=(alphabeta:depth=2)"]
        );
        assert_eq!(split("a\\\nb"), ["ab"]);
    }

    #[test]
    fn refuses_what_needs_a_shell() {
        for bad in [
            "a | b", "a; b", "a > f", "a $HOME", "a `x`", "a *", "~/x", "# c", "a&",
        ] {
            assert!(
                matches!(
                    split_command(bad),
                    Err(SplitCommandError::ShellSyntax { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            split_command("'a"),
            Err(SplitCommandError::UnclosedQuote {
                quote: "single",
                ..
            })
        ));
        assert!(matches!(
            split_command("\"a"),
            Err(SplitCommandError::UnclosedQuote {
                quote: "double",
                ..
            })
        ));
        assert!(matches!(
            split_command("a\\"),
            Err(SplitCommandError::TrailingBackslash { .. })
        ));
        assert_eq!(split_command("  "), Err(SplitCommandError::Empty));
    }
}
