"""Human judgement of LIT's outputs: a stratified sample of a run (lit.judge.sample), a local
judging page that writes every answer at once (lit.judge.server, lit.judge.answers), agreement
of the label rules with the judges (lit.judge.agree, lit.judge.stats), and Label Studio
interchange (lit.judge.labelstudio). docs/judging.md has the protocol."""
