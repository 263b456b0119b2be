/**
 * The skill the everything server serves for the suite's `sep-2640-*` server scenarios: a
 * SKILL.md with frontmatter (a `metadata` map among its fields), a supporting file in a
 * subdirectory (so directory reads meet an `inode/directory` child) and a script.
 */
import { SkillsExtension, type SkillDefinition } from '../runtime/features/skills/index.js';

export const conformanceSkill: SkillDefinition = {
  path: 'pdf-processing',
  files: {
    'SKILL.md': [
      '---',
      'name: pdf-processing',
      'description: Extract, fill, and assemble PDF documents',
      'license: Apache-2.0',
      'metadata:',
      '  version: "2.1.0"',
      '---',
      '',
      '# PDF processing',
      '',
      'Fill forms as `references/FORMS.md` describes; `scripts/extract.py` pulls the text out.',
      '',
    ].join('\n'),
    'references/FORMS.md': '# Forms\n\nEvery field of the form, in order.\n',
    'scripts/extract.py': 'import sys\n\nprint(open(sys.argv[1], "rb").read()[:100])\n',
  },
};

/** The skills extension, one for the whole process (on HTTP every stateless request has its own Server). */
export const skills = new SkillsExtension();
await skills.catalog.add(conformanceSkill);
