import { toTraditional } from './han-script';
import type { OfflineLanguage } from './language';
import type { Intent } from './intents';

interface Phrases {
  greeting: string;
  acknowledged: string;
  done: (tool: string, summary: string) => string;
  failed: (tool: string, summary: string) => string;
  noTool: (intent: string) => string;
  intents: Record<Intent, string>;
}

const CAPABILITIES_EN =
  'I am the offline demo policy, not a model: I can take notes, show the history, export and delete notes.';

const SIMPLIFIED: Phrases = {
  greeting: '你好！我是离线演示策略，不是模型：我可以记笔记、查看历史、导出和删除笔记。',
  acknowledged: '收到。我是离线演示策略，不是模型：我可以记笔记、查看历史、导出和删除笔记。',
  done: (tool, summary) => `已完成（${tool}）：${summary}`,
  failed: (tool, summary) => `没有成功（${tool}）：${summary}`,
  noTool: (intent) => `这里无法完成：没有可用的${intent}工具。`,
  intents: { note: '笔记', history: '历史', export: '导出', delete: '删除', storyboard: '分镜文档' },
};

// The same phrases in Traditional characters; tool names and summaries pass through unchanged.
const TRADITIONAL: Phrases = {
  greeting: toTraditional(SIMPLIFIED.greeting),
  acknowledged: toTraditional(SIMPLIFIED.acknowledged),
  done: (tool, summary) => `${toTraditional('已完成')}（${tool}）：${summary}`,
  failed: (tool, summary) => `${toTraditional('没有成功')}（${tool}）：${summary}`,
  noTool: (intent) => toTraditional(SIMPLIFIED.noTool(intent)),
  intents: {
    note: toTraditional(SIMPLIFIED.intents.note),
    history: toTraditional(SIMPLIFIED.intents.history),
    export: toTraditional(SIMPLIFIED.intents.export),
    delete: toTraditional(SIMPLIFIED.intents.delete),
    storyboard: toTraditional(SIMPLIFIED.intents.storyboard),
  },
};

export const PHRASES: Record<OfflineLanguage, Phrases> = {
  'zh-Hans': SIMPLIFIED,
  'zh-Hant': TRADITIONAL,
  en: {
    greeting: `Hello! ${CAPABILITIES_EN}`,
    acknowledged: `Got it. ${CAPABILITIES_EN}`,
    done: (tool, summary) => `Done (${tool}): ${summary}`,
    failed: (tool, summary) => `That did not work (${tool}): ${summary}`,
    noTool: (intent) => `I cannot do that here: no ${intent} tool is available.`,
    intents: { note: 'note-taking', history: 'history', export: 'export', delete: 'delete', storyboard: 'document' },
  },
  fr: {
    greeting:
      "Bonjour ! Je suis la politique de démonstration hors ligne, pas un modèle : je peux prendre des notes, montrer l'historique, exporter et supprimer des notes.",
    acknowledged:
      "C'est noté. Je suis la politique de démonstration hors ligne, pas un modèle : je peux prendre des notes, montrer l'historique, exporter et supprimer des notes.",
    done: (tool, summary) => `C'est fait (${tool}) : ${summary}`,
    failed: (tool, summary) => `Cela n'a pas marché (${tool}) : ${summary}`,
    noTool: (intent) => `Je ne peux pas le faire ici : aucun outil de ${intent} n'est disponible.`,
    intents: {
      note: 'prise de notes',
      history: 'historique',
      export: 'export',
      delete: 'suppression',
      storyboard: 'document',
    },
  },
  de: {
    greeting:
      'Hallo! Ich bin die Offline-Demo-Logik, kein Modell: Ich kann Notizen anlegen, den Verlauf zeigen, exportieren und Notizen löschen.',
    acknowledged:
      'Verstanden. Ich bin die Offline-Demo-Logik, kein Modell: Ich kann Notizen anlegen, den Verlauf zeigen, exportieren und Notizen löschen.',
    done: (tool, summary) => `Erledigt (${tool}): ${summary}`,
    failed: (tool, summary) => `Das hat nicht geklappt (${tool}): ${summary}`,
    noTool: (intent) => `Das geht hier nicht: Es gibt kein Werkzeug für ${intent}.`,
    intents: {
      note: 'Notizen',
      history: 'den Verlauf',
      export: 'den Export',
      delete: 'das Löschen',
      storyboard: 'Dokumente',
    },
  },
  es: {
    greeting:
      '¡Hola! Soy la política de demostración sin conexión, no un modelo: puedo tomar notas, mostrar el historial, exportar y borrar notas.',
    acknowledged:
      'Entendido. Soy la política de demostración sin conexión, no un modelo: puedo tomar notas, mostrar el historial, exportar y borrar notas.',
    done: (tool, summary) => `Hecho (${tool}): ${summary}`,
    failed: (tool, summary) => `No funcionó (${tool}): ${summary}`,
    noTool: (intent) => `No puedo hacerlo aquí: no hay ninguna herramienta de ${intent}.`,
    intents: {
      note: 'notas',
      history: 'historial',
      export: 'exportación',
      delete: 'borrado',
      storyboard: 'documentos',
    },
  },
};

const GREETING = /(?<!\p{L})(hi|hello|hey|bonjour|salut|hallo|guten tag|hola|buenos días)(?!\p{L})|你好|您好/iu;
export const isGreeting = (text: string) => GREETING.test(text);
