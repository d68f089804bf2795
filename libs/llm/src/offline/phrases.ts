import { toTraditional } from './han-script';
import type { OfflineLanguage } from './language';
import type { Intent } from './intents';
import type { OfflineMediaKind } from './media-intent';

interface Phrases {
  greeting: string;
  acknowledged: string;
  done: (tool: string, summary: string) => string;
  failed: (tool: string, summary: string) => string;
  noTool: (intent: string) => string;
  /** tools.load was called this turn for these domains and their tools are still not offered. */
  notLoaded: (domains: string) => string;
  intents: Record<Intent, string>;
  /** A media call answered pending: it is being made and will show up in the workspace. */
  mediaPending: (kind: OfflineMediaKind) => string;
  /** Its completion arrived: the artefact it made. */
  mediaReady: (kind: OfflineMediaKind, artifactId: string) => string;
}

const CAPABILITIES_EN =
  'I am the offline demo policy, not a model: I can take notes, show the history, export and delete notes.';

// What each media kind is called in a reply.
const MEDIA_ZH: Record<OfflineMediaKind, string> = { image: '图片', video: '视频', '3d': '3D 模型', audio: '音频' };

const MEDIA_EN: Record<OfflineMediaKind, string> = { image: 'image', video: 'video', '3d': '3D model', audio: 'audio' };
const MEDIA_FR: Record<OfflineMediaKind, string> = {
  image: 'image',
  video: 'vidéo',
  '3d': 'modèle 3D',
  audio: 'audio',
};
const MEDIA_DE: Record<OfflineMediaKind, string> = { image: 'Bild', video: 'Video', '3d': '3D-Modell', audio: 'Audio' };
const MEDIA_ES: Record<OfflineMediaKind, string> = {
  image: 'imagen',
  video: 'vídeo',
  '3d': 'modelo 3D',
  audio: 'audio',
};

const SIMPLIFIED: Phrases = {
  greeting: '你好！我是离线演示策略，不是模型：我可以记笔记、查看历史、导出和删除笔记。',
  acknowledged: '收到。我是离线演示策略，不是模型：我可以记笔记、查看历史、导出和删除笔记。',
  done: (tool, summary) => `已完成（${tool}）：${summary}`,
  failed: (tool, summary) => `没有成功（${tool}）：${summary}`,
  noTool: (intent) => `这里无法完成：没有可用的${intent}工具。`,
  notLoaded: (domains) => `这里无法完成：已请求加载 ${domains} 工具，但它们仍不可用。`,
  intents: { note: '笔记', history: '历史', export: '导出', delete: '删除', storyboard: '分镜文档', media: '媒体生成' },
  mediaPending: (kind) => `正在生成${MEDIA_ZH[kind]}，完成后会出现在工作区。`,
  mediaReady: (kind, id) => `${MEDIA_ZH[kind]}已生成，已放入工作区（${id}）。`,
};

// The same phrases in Traditional characters; tool names and summaries pass through unchanged.
const TRADITIONAL: Phrases = {
  greeting: toTraditional(SIMPLIFIED.greeting),
  acknowledged: toTraditional(SIMPLIFIED.acknowledged),
  done: (tool, summary) => `${toTraditional('已完成')}（${tool}）：${summary}`,
  failed: (tool, summary) => `${toTraditional('没有成功')}（${tool}）：${summary}`,
  noTool: (intent) => toTraditional(SIMPLIFIED.noTool(intent)),
  notLoaded: (domains) => toTraditional(SIMPLIFIED.notLoaded(domains)),
  intents: {
    note: toTraditional(SIMPLIFIED.intents.note),
    history: toTraditional(SIMPLIFIED.intents.history),
    export: toTraditional(SIMPLIFIED.intents.export),
    delete: toTraditional(SIMPLIFIED.intents.delete),
    storyboard: toTraditional(SIMPLIFIED.intents.storyboard),
    media: toTraditional(SIMPLIFIED.intents.media),
  },
  mediaPending: (kind) => toTraditional(SIMPLIFIED.mediaPending(kind)),
  // Ids are ASCII: the conversion leaves them as they are.
  mediaReady: (kind, id) => toTraditional(SIMPLIFIED.mediaReady(kind, id)),
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
    notLoaded: (domains) => `I cannot do that here: I loaded the ${domains} tools, but they are still not available.`,
    intents: {
      note: 'note-taking',
      history: 'history',
      export: 'export',
      delete: 'delete',
      storyboard: 'document',
      media: 'media generation',
    },
    mediaPending: (kind) => `The ${MEDIA_EN[kind]} is being made; it will appear in the workspace when it is ready.`,
    mediaReady: (kind, id) => `The ${MEDIA_EN[kind]} is ready: artefact ${id} is in the workspace.`,
  },
  fr: {
    greeting:
      "Bonjour ! Je suis la politique de démonstration hors ligne, pas un modèle : je peux prendre des notes, montrer l'historique, exporter et supprimer des notes.",
    acknowledged:
      "C'est noté. Je suis la politique de démonstration hors ligne, pas un modèle : je peux prendre des notes, montrer l'historique, exporter et supprimer des notes.",
    done: (tool, summary) => `C'est fait (${tool}) : ${summary}`,
    failed: (tool, summary) => `Cela n'a pas marché (${tool}) : ${summary}`,
    noTool: (intent) => `Je ne peux pas le faire ici : aucun outil de ${intent} n'est disponible.`,
    notLoaded: (domains) =>
      `Je ne peux pas le faire ici : j'ai chargé les outils ${domains}, mais ils ne sont toujours pas disponibles.`,
    intents: {
      note: 'prise de notes',
      history: 'historique',
      export: 'export',
      delete: 'suppression',
      storyboard: 'document',
      media: 'génération de médias',
    },
    mediaPending: (kind) => `Création en cours (${MEDIA_FR[kind]}) : le résultat apparaîtra dans l'espace de travail.`,
    mediaReady: (kind, id) => `C'est prêt (${MEDIA_FR[kind]}) : l'artefact ${id} est dans l'espace de travail.`,
  },
  de: {
    greeting:
      'Hallo! Ich bin die Offline-Demo-Logik, kein Modell: Ich kann Notizen anlegen, den Verlauf zeigen, exportieren und Notizen löschen.',
    acknowledged:
      'Verstanden. Ich bin die Offline-Demo-Logik, kein Modell: Ich kann Notizen anlegen, den Verlauf zeigen, exportieren und Notizen löschen.',
    done: (tool, summary) => `Erledigt (${tool}): ${summary}`,
    failed: (tool, summary) => `Das hat nicht geklappt (${tool}): ${summary}`,
    noTool: (intent) => `Das geht hier nicht: Es gibt kein Werkzeug für ${intent}.`,
    notLoaded: (domains) =>
      `Das geht hier nicht: Ich habe die Werkzeuge ${domains} geladen, aber sie sind immer noch nicht verfügbar.`,
    intents: {
      note: 'Notizen',
      history: 'den Verlauf',
      export: 'den Export',
      delete: 'das Löschen',
      storyboard: 'Dokumente',
      media: 'Mediengenerierung',
    },
    mediaPending: (kind) => `Wird erstellt (${MEDIA_DE[kind]}): Das Ergebnis erscheint im Arbeitsbereich.`,
    mediaReady: (kind, id) => `Fertig (${MEDIA_DE[kind]}): Artefakt ${id} liegt im Arbeitsbereich.`,
  },
  es: {
    greeting:
      '¡Hola! Soy la política de demostración sin conexión, no un modelo: puedo tomar notas, mostrar el historial, exportar y borrar notas.',
    acknowledged:
      'Entendido. Soy la política de demostración sin conexión, no un modelo: puedo tomar notas, mostrar el historial, exportar y borrar notas.',
    done: (tool, summary) => `Hecho (${tool}): ${summary}`,
    failed: (tool, summary) => `No funcionó (${tool}): ${summary}`,
    noTool: (intent) => `No puedo hacerlo aquí: no hay ninguna herramienta de ${intent}.`,
    notLoaded: (domains) =>
      `No puedo hacerlo aquí: cargué las herramientas ${domains}, pero siguen sin estar disponibles.`,
    intents: {
      note: 'notas',
      history: 'historial',
      export: 'exportación',
      delete: 'borrado',
      storyboard: 'documentos',
      media: 'generación de medios',
    },
    mediaPending: (kind) => `Generando (${MEDIA_ES[kind]}): aparecerá en el espacio de trabajo cuando esté listo.`,
    mediaReady: (kind, id) => `Listo (${MEDIA_ES[kind]}): el artefacto ${id} está en el espacio de trabajo.`,
  },
};

const GREETING = /(?<!\p{L})(hi|hello|hey|bonjour|salut|hallo|guten tag|hola|buenos días)(?!\p{L})|你好|您好/iu;
export const isGreeting = (text: string) => GREETING.test(text);
